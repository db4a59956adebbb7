import { parseArgs } from "node:util";
import { type ChatCompletionInputMessage, InferenceClient, type Options } from "@hfkit/inference";
import { type Io, positiveNumber, readAll, UsageError } from "../io";
import { Progress } from "../progress";

export const CHAT_HELP = `hfkit chat [--model M] [--base-url U | --endpoint URL] [--provider P] [--max-tokens N]
           [--temperature T] [--system S] [--timeout MS] [--verbose] [PROMPT]

Streams a chat answer to stdout as it arrives. The prompt comes from PROMPT or, without it, from stdin.
The token is read from HF_TOKEN (never from the command line); without one, no Authorization is sent.`;

/** `hfkit chat`: streams the answer's tokens to stdout; progress and errors go to stderr. */
export async function chat(argv: string[], io: Io): Promise<void> {
  const { values, positionals } = parseArgs({
    args: argv,
    allowPositionals: true,
    options: {
      model: { type: "string" },
      "base-url": { type: "string" },
      endpoint: { type: "string" },
      provider: { type: "string" },
      "max-tokens": { type: "string" },
      temperature: { type: "string" },
      system: { type: "string" },
      timeout: { type: "string" },
      verbose: { type: "boolean" },
    },
  });
  if (values["base-url"] && values.endpoint) throw new UsageError("give --base-url or --endpoint, not both");
  if (!values.model && !values.endpoint) throw new UsageError("--model is required (or --endpoint)");
  const prompt = positionals.length > 0 ? positionals.join(" ") : io.stdin.isTTY ? "" : (await readAll(io.stdin)).trim();
  if (!prompt) throw new UsageError("no prompt: give one as an argument or on stdin");

  const model = values.model ?? "tgi";
  const progress = new Progress(io.stderr, model);
  const options: Options = {
    baseUrl: values["base-url"],
    endpointUrl: values.endpoint,
    provider: values.provider,
    timeout: positiveNumber("timeout", values.timeout),
    onRetry: (event) => progress.onRetry(event),
    // Loading is shown by the progress line; other warnings go to stderr.
    logger: { warn: (m) => void (/is loading/.test(m) || io.stderr.write(`${m}\n`)) },
  };
  const messages: ChatCompletionInputMessage[] = [];
  if (values.system) messages.push({ role: "system", content: values.system });
  messages.push({ role: "user", content: prompt });

  const client = new InferenceClient(io.env.HF_TOKEN ?? "", options);
  try {
    for await (const chunk of client.chatCompletionStream({
      model: values.model,
      messages,
      max_tokens: positiveNumber("max-tokens", values["max-tokens"], true),
      temperature: positiveNumber("temperature", values.temperature),
    })) {
      const content = chunk.choices[0]?.delta?.content;
      if (content) {
        progress.clear();
        io.stdout.write(content);
      }
    }
    io.stdout.write("\n");
  } finally {
    progress.clear();
  }
}
