/** The AI SDK's call options as the chat arguments of `@hfkit/inference`, and the warnings they give. */
import type { CallOptions, Warning } from "./spec/types";
import type {
  ChatCompletionArgs,
  ChatCompletionInputTool,
  HealthOptions,
  HedgeOptions,
  Options,
  RoutingOptions,
} from "@hfkit/inference";
import { toChatMessages } from "./prompt";

/** The key of this provider's `providerOptions`: `providerOptions: { hfkit: {...} }`. */
export const PROVIDER_OPTIONS_KEY = "hfkit";

/** What `providerOptions.hfkit` takes on a call. */
export interface HfkitProviderOptions {
  /** Fields merged into the request body as they are (vLLM's `top_k`, `chat_template_kwargs`, `reasoning_effort`). */
  extraBody?: Record<string, unknown>;
  /** TGI only: the instruction put before the tool definitions in the prompt (`tool_prompt`). */
  toolPrompt?: string;
  /** An end-user id, passed on to the provider (OpenAI's `user`). */
  user?: string;
  /**
   * This call's circuit breakers, over the settings' (a call that fails over: a `provider` list or
   * `fallbackModels`): `false` turns them off; an object sets `threshold`, `window`, `ratio`, `minimumCalls`,
   * `cooldown` (a `store` goes in the settings).
   */
  health?: false | Omit<HealthOptions, "store">;
  /** This call's order of the candidates, over the settings': `sort`, `maxPrice`, `explore` (`random` goes in the settings). */
  routing?: Omit<RoutingOptions, "random">;
  /** This call's hedged first tokens, over the settings': `{ afterMs, percentile }`, or `false` to turn them off. */
  hedge?: false | HedgeOptions;
}

/** The per-call options of a call that fails over, as `providerOptions.hfkit` gives them. */
const ROUTING_KEYS = ["health", "routing", "hedge"] as const;

/**
 * `health`, `routing` and `hedge` from a call's `providerOptions.hfkit`, passed on as they are, so that
 * `@hfkit/inference` checks them (an InputError naming the field, before any request).
 */
export function routingOptionsOf(providerOptions: CallOptions["providerOptions"]): Partial<Options> {
  const own: unknown = providerOptions?.[PROVIDER_OPTIONS_KEY];
  if (typeof own !== "object" || own === null) return {};
  const out: Partial<Options> = {};
  for (const key of ROUTING_KEYS) if (key in own) Object.assign(out, { [key]: (own as Record<string, unknown>)[key] });
  return out;
}

/**
 * How a JSON schema for structured output is sent: `"openai"`, OpenAI's
 * `{type: "json_schema", json_schema: {name, schema}}`; `"tgi"`, TGI's grammar `{type: "json", value: schema}`.
 */
export type JsonSchemaFormat = "openai" | "tgi";

/**
 * The rule when not set: TGI's form when the backend is `"tgi"`, or unset on a route whose backend is
 * detected with TGI first (a dedicated endpoint, `baseUrl`, `provider: "hf-inference"`); OpenAI's form
 * otherwise (`backend: "openai"` or `"transformers"`, the HF router and its providers).
 */
export function jsonSchemaFormatFor(options: Options): JsonSchemaFormat {
  if (options.backend !== undefined) return options.backend === "tgi" ? "tgi" : "openai";
  const detected =
    options.endpointUrl !== undefined || options.baseUrl !== undefined || options.provider === "hf-inference";
  return detected ? "tgi" : "openai";
}

/** The chat arguments of one call (model and route are added by the caller), and its warnings. */
export function toChatArgs(
  options: CallOptions,
  format: JsonSchemaFormat,
  stream: boolean,
): { args: ChatCompletionArgs; warnings: Warning[] } {
  const warnings: Warning[] = [];
  const own = readProviderOptions(options.providerOptions?.[PROVIDER_OPTIONS_KEY]);
  const args: ChatCompletionArgs = {
    messages: toChatMessages(options.prompt),
    max_tokens: options.maxOutputTokens,
    temperature: options.temperature,
    top_p: options.topP,
    stop: options.stopSequences?.length ? options.stopSequences : undefined,
    seed: options.seed,
    frequency_penalty: options.frequencyPenalty,
    presence_penalty: options.presencePenalty,
    tool_prompt: own.toolPrompt,
    user: own.user,
    extra_body: own.extraBody,
    stream_options: stream ? { include_usage: true } : undefined,
  };
  if (options.topK !== undefined) {
    warnings.push({
      type: "unsupported",
      feature: "topK",
      details:
        "The chat protocol has no top_k: pass it in providerOptions.hfkit.extraBody where the server takes it (vLLM).",
    });
  }
  if (options.reasoning !== undefined && options.reasoning !== "provider-default") {
    warnings.push({
      type: "unsupported",
      feature: "reasoning",
      details: "Pass the server's own field (e.g. reasoning_effort) in providerOptions.hfkit.extraBody.",
    });
  }
  addTools(args, options, warnings);
  addResponseFormat(args, options, format);
  return { args: dropUndefined(args), warnings };
}

function addTools(args: ChatCompletionArgs, options: CallOptions, warnings: Warning[]): void {
  const tools: ChatCompletionInputTool[] = [];
  for (const tool of options.tools ?? []) {
    if (tool.type === "function") {
      tools.push({
        type: "function",
        function: { name: tool.name, description: tool.description, parameters: tool.inputSchema },
      });
    } else {
      warnings.push({
        type: "unsupported",
        feature: `provider tool ${tool.id}`,
        details: "These servers run no tools of their own.",
      });
    }
  }
  if (tools.length === 0) return;
  args.tools = tools.map((tool) => ({ ...tool, function: dropUndefined(tool.function) }));
  const choice = options.toolChoice;
  if (choice === undefined) return;
  args.tool_choice = choice.type === "tool" ? { type: "function", function: { name: choice.toolName } } : choice.type;
}

function addResponseFormat(args: ChatCompletionArgs, options: CallOptions, format: JsonSchemaFormat): void {
  const rf = options.responseFormat;
  if (rf?.type !== "json") return;
  if (format === "tgi") {
    // TGI's grammar takes a schema; without one, any JSON object.
    args.response_format = { type: "json", value: rf.schema ?? { type: "object" } };
  } else if (rf.schema === undefined) {
    args.response_format = { type: "json_object" };
  } else {
    const json_schema = dropUndefined({ name: rf.name ?? "response", description: rf.description, schema: rf.schema });
    // Sent as is (in `extra_body`): the AI SDK parses and checks the answer itself (and may repair it), so the
    // core's own structured output is not asked for. The core still sends a TGI server TGI's form of it.
    args.extra_body = { ...args.extra_body, response_format: { type: "json_schema", json_schema } };
  }
}

function readProviderOptions(value: unknown): HfkitProviderOptions {
  if (typeof value !== "object" || value === null) return {};
  const o = value as Record<string, unknown>;
  return {
    extraBody:
      typeof o.extraBody === "object" && o.extraBody !== null ? (o.extraBody as Record<string, unknown>) : undefined,
    toolPrompt: typeof o.toolPrompt === "string" ? o.toolPrompt : undefined,
    user: typeof o.user === "string" ? o.user : undefined,
  };
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
