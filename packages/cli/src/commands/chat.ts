import { type ChatCompletionInputMessage, InferenceClient, type Options } from "@hfkit/inference";
import { parseArgs } from "node:util";
import { numberFlag, withNegatives } from "../args";
import { colorOn } from "../color";
import { EXIT, type Io, readAll, UsageError } from "../io";
import { warnings } from "../progress";
import { answer, type Session } from "./answer";
import { converse } from "./interactive";

export const CHAT_HELP = `hfkit chat [-m MODEL] [--base-url U | --endpoint URL] [options] [PROMPT]

Streams a chat answer to stdout as it arrives; progress and errors go to stderr. The prompt comes from
PROMPT or, without it, from stdin. With no PROMPT and stdin a terminal (or with -i), a conversation:
a "> " prompt, each answer streamed, the history kept; /exit or Ctrl-D ends it. Ctrl-C cancels the
answer in flight at once (in a conversation: back to the prompt; otherwise, or at the prompt: exit 130).

  -m, --model M        the model id (required unless --endpoint)
  --base-url U         an hf-inference-style server: chat goes to U/models/M/v1/chat/completions
  --endpoint URL       a dedicated endpoint: chat goes to URL/v1/chat/completions
  --provider P[,P...]  the router's provider (default auto), or providers tried in order before the first
                       token (a failed one moves the call to the next); not with --base-url or --endpoint
  --fallback-model M   a model tried after the main model's providers (org/name or org/name:provider);
                       repeatable, in order
  --router-url U       the HF router (default https://router.huggingface.co; a mock hub's URL offline)
  --sort S             with a provider list or --fallback-model, try first the candidate with the lowest
                       observed time to first token (latency), the most tokens per second (throughput) or
                       the lowest price in the router's catalog (price)
  --explore P          with --sort, the share of calls that try another candidate first, so each is measured
                       again (a number from 0 to 1; default 0.1)
  --max-price N        skip a router candidate whose catalog price (input or output) is above N dollars per
                       million tokens, without a request (a number >= 0)
  --hedge-after MS     when the candidate running has given no token after MS ms, start the next beside it;
                       the first to give a token answers, the other is closed (a number from 1 to 600000;
                       the other provider may bill the prompt)
  --no-health          no circuit breakers: a candidate that failed lately is not skipped (in a conversation,
                       three failures within a minute skip it for 30 s otherwise)
  --system S           a system message before the conversation
  --max-tokens N       at most N tokens in each answer (a whole number >= 1)
  --temperature T      sampling temperature (a number >= 0)
  --top-p P            nucleus sampling (a number from 0 to 1)
  --stop S             stop the answer at S (repeatable)
  --seed N             a random seed, for repeatable sampling (a whole number >= 0)
  --timeout MS         deadline over each call, model loading waits included, in ms
  --no-stream          ask for the whole answer at once
  --json               print JSON: one chunk per line (NDJSON) as they arrive; with --no-stream,
                       the whole ChatCompletionOutput
  -i, --interactive    a conversation even when stdin is not a terminal (PROMPT, if any, is its first turn)
  --stats              after each answer, on stderr: time to first token, tokens/s, tokens, attempts and
                       the serving provider
  --verbose            a stack with each error

The token is read from HF_TOKEN (never from the command line); without one, no Authorization is sent.`;

const OPTIONS = {
  model: { type: "string", short: "m" },
  "base-url": { type: "string" },
  endpoint: { type: "string" },
  provider: { type: "string" },
  "fallback-model": { type: "string", multiple: true },
  "router-url": { type: "string" },
  sort: { type: "string" },
  explore: { type: "string" },
  "max-price": { type: "string" },
  "hedge-after": { type: "string" },
  "no-health": { type: "boolean" },
  system: { type: "string" },
  "max-tokens": { type: "string" },
  temperature: { type: "string" },
  "top-p": { type: "string" },
  stop: { type: "string", multiple: true },
  seed: { type: "string" },
  timeout: { type: "string" },
  "no-stream": { type: "boolean" },
  json: { type: "boolean" },
  interactive: { type: "boolean", short: "i" },
  stats: { type: "boolean" },
  verbose: { type: "boolean" },
} as const;

/** Providers that mean "the server given" when --base-url or --endpoint names one. */
const SERVER_PROVIDERS = ["auto", "hf-inference"];

/** What `--sort` takes. */
const SORTS = ["latency", "throughput", "price"] as const;

/** `hfkit chat`: one answer streamed to stdout, or a conversation; progress and errors go to stderr. */
export async function chat(argv: string[], io: Io): Promise<number> {
  const { values, positionals } = parseArgs({
    args: withNegatives(argv, OPTIONS),
    options: OPTIONS,
    allowPositionals: true,
  });
  const server = values["base-url"] ? "--base-url" : values.endpoint ? "--endpoint" : undefined;
  if (values["base-url"] && values.endpoint) throw new UsageError("give --base-url or --endpoint, not both");
  if (!values.model && !values.endpoint) throw new UsageError("--model is required (or --endpoint)");
  const providers = values.provider?.split(",").map((p) => p.trim());
  if (providers?.some((p) => p === ""))
    throw new UsageError(`--provider ${values.provider}: a provider's name is empty`);
  if (
    server &&
    providers !== undefined &&
    (providers.length > 1 || !SERVER_PROVIDERS.includes(values.provider ?? ""))
  ) {
    throw new UsageError(
      `--provider ${values.provider} does not combine with ${server}: ${server} names the server itself (an hf-inference-style one); drop --provider`,
    );
  }
  const timeout = numberFlag("timeout", values.timeout, { min: 1 });
  const routing = routingFlags(values, (providers?.length ?? 0) > 1 || values["fallback-model"] !== undefined);
  const session: Session = {
    io,
    model: values.model ?? "tgi",
    color: colorOn(io.stderr, io.env),
    stream: !values["no-stream"],
    json: values.json === true,
    verbose: values.verbose === true,
    stats: values.stats === true,
    timeout,
    request: {
      model: values.model,
      ...(providers !== undefined && providers.length > 1 ? { provider: providers } : {}),
      ...(values["fallback-model"] ? { fallbackModels: values["fallback-model"] } : {}),
      max_tokens: numberFlag("max-tokens", values["max-tokens"], { min: 1, integer: true }),
      temperature: numberFlag("temperature", values.temperature, { min: 0 }),
      top_p: numberFlag("top-p", values["top-p"], { min: 0, max: 1 }),
      stop: values.stop,
      seed: numberFlag("seed", values.seed, { min: 0, max: Number.MAX_SAFE_INTEGER, integer: true }),
    },
    client: new InferenceClient(io.env.HF_TOKEN ?? "", {
      baseUrl: values["base-url"],
      endpointUrl: values.endpoint,
      provider: providers?.length === 1 ? providers[0] : undefined,
      routerUrl: values["router-url"],
      timeout,
      logger: warnings(io.stderr),
      ...routing,
    }),
  };
  const messages: ChatCompletionInputMessage[] = values.system ? [{ role: "system", content: values.system }] : [];
  const typed = positionals.join(" ").trim();

  if (values.interactive || (typed === "" && io.stdin.isTTY === true))
    return converse(session, messages, typed || undefined);

  const prompt = typed || (await readAll(io.stdin)).trim();
  if (!prompt) throw new UsageError("no prompt: give one as an argument or on stdin");
  messages.push({ role: "user", content: prompt });
  return (await answer(session, messages)) === undefined ? EXIT.interrupted : EXIT.ok;
}

/**
 * `--sort`, `--explore`, `--max-price`, `--hedge-after` and `--no-health` as the client's `routing`, `hedge` and `health`; each
 * is for a call that fails over (`failsOver`): without a provider list or a fallback model, a usage error.
 */
function routingFlags(
  values: { sort?: string; explore?: string; "max-price"?: string; "hedge-after"?: string; "no-health"?: boolean },
  failsOver: boolean,
): Pick<Options, "routing" | "hedge" | "health"> {
  const flags = ["sort", "explore", "max-price", "hedge-after", "no-health"] as const;
  const given = flags.filter((f) => values[f] !== undefined);
  if (given.length > 0 && !failsOver) {
    throw new UsageError(
      `--${given[0]} is for a call that fails over: give --provider a list (P,P...) or --fallback-model`,
    );
  }
  const sort = values.sort;
  if (sort !== undefined && !(SORTS as readonly string[]).includes(sort))
    throw new UsageError(`--sort must be latency, throughput or price (got "${sort}")`);
  const explore = numberFlag("explore", values.explore, { min: 0, max: 1 });
  if (explore !== undefined && sort === undefined) throw new UsageError("--explore goes with --sort");
  const maxPrice = numberFlag("max-price", values["max-price"], { min: 0 });
  const afterMs = numberFlag("hedge-after", values["hedge-after"], { min: 1, max: 600_000 });
  const out: Pick<Options, "routing" | "hedge" | "health"> = {};
  if (sort !== undefined || maxPrice !== undefined)
    out.routing = {
      ...(sort ? { sort: sort as (typeof SORTS)[number] } : {}),
      ...(explore !== undefined ? { explore } : {}),
      ...(maxPrice !== undefined ? { maxPrice } : {}),
    };
  if (afterMs !== undefined) out.hedge = { afterMs };
  if (values["no-health"]) out.health = false;
  return out;
}
