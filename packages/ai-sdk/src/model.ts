/** The AI SDK language model (specifications v2, v3 and v4) over `@hfkit/inference`'s chat calls. */
import {
  AbortError,
  type ChatCompletionArgs,
  type ChatCompletionStreamOutput,
  chatCompletion,
  chatCompletionStream,
  type Options,
  type WeightedProvider,
} from "@hfkit/inference";
import { type JsonSchemaFormat, jsonSchemaFormatFor, routingOptionsOf, toChatArgs } from "./args";
import { callContext, targetUrl } from "./call";
import { type CallInfo, toAiSdkError } from "./errors";
import { finishReason, responseMetadata, servedMetadata, usageOf } from "./map";
import { finishReasonFor, streamPartFor, usageFor, warningsFor } from "./spec/adapt";
import type { CallOptions, Content, GenerateResult, SpecVersion, StreamPart, StreamResult } from "./spec/types";
import { StreamMapper } from "./stream";

/**
 * What a model takes: every option of `@hfkit/inference` (`endpointUrl`, `baseUrl`, `provider`,
 * `backend`, `maxRetries`, timeouts, `headers`, `fetch`, …) except `signal` (the AI SDK's
 * `abortSignal` is used), and how a JSON schema for structured output is sent.
 */
export interface HfkitChatSettings extends Omit<Options, "signal" | "provider"> {
  /**
   * The router's provider, or providers tried in order before the first token: a candidate that fails
   * (refused, 5xx, 429, a stall, an error in the stream, "not served") moves the call to the next. A listed
   * provider may carry a weight (`{ name: "together", weight: 3 }`): the first is drawn in proportion to them.
   * `health`, `routing` and `hedge` apply to such a call (per call too, in `providerOptions.hfkit`).
   */
  provider?: string | readonly (string | WeightedProvider)[];
  /** Models tried after the model's providers: `org/name` or `org/name:provider`. */
  fallbackModels?: readonly string[];
  /** `"openai"` or `"tgi"`; unset, chosen by the backend and route (see `jsonSchemaFormatFor`). */
  jsonSchemaFormat?: JsonSchemaFormat;
}

/** How the provider builds a model: its specification, name, token, settings and ids. */
export interface HfkitModelConfig<V extends SpecVersion = SpecVersion, S = HfkitChatSettings> {
  /** The specification the model follows. */
  specificationVersion: V;
  /** The `provider` the AI SDK reports, e.g. `"hfkit.chat"`. */
  provider: string;
  /** The access token at call time (`""` sends none). */
  accessToken: () => string;
  /** The provider's settings with the model's over them. */
  settings: S;
  /** Makes an id for a tool call the server sent without one. */
  generateId: () => string;
}

/** After the answer's finish, how long to wait for a usage chunk a server may never send (TGI < 2.3). */
export const USAGE_WAIT_MS = 500;

const ROUTER_CHAT_URL = "https://router.huggingface.co/v1/chat/completions";

/** A chat model on the HF router, an hf-inference-style base or a dedicated endpoint; see `createHfkit`. */
export class HfkitChatLanguageModel<V extends SpecVersion = SpecVersion> {
  /** The specification implemented: `"v2"` (`ai` 5), `"v3"` (`ai` 6) or `"v4"` (`ai` 7). */
  readonly specificationVersion: V;
  /** The provider's name, e.g. `"hfkit.chat"`. */
  readonly provider: string;
  /** The model id, e.g. `"meta-llama/Llama-3.1-8B-Instruct"` (`"tgi"` on an endpoint given none). */
  readonly modelId: string;
  /** Image URLs are passed to the server as they are, not downloaded first. */
  readonly supportedUrls: Record<string, RegExp[]> = { "image/*": [/^https?:\/\/.*$/i] };
  private readonly model: string | undefined;
  private readonly config: HfkitModelConfig<V>;

  /** `model` undefined: a dedicated endpoint's own model. */
  constructor(model: string | undefined, config: HfkitModelConfig<V>) {
    this.specificationVersion = config.specificationVersion;
    this.model = model;
    this.modelId = model ?? "tgi";
    this.provider = config.provider;
    this.config = config;
  }

  /** One answer, not streamed (`generateText`). */
  async doGenerate(options: CallOptions): Promise<GenerateResult<V>> {
    const call = this.prepare(options, false);
    let out;
    try {
      out = await chatCompletion(call.sent, call.options);
    } catch (error) {
      throw toAiSdkError(error, call.info());
    }
    const choice = out.choices[0];
    const message = choice?.message;
    const content: Content[] = [];
    if (typeof message?.reasoning === "string" && message.reasoning !== "")
      content.push({ type: "reasoning", text: message.reasoning });
    if (typeof message?.content === "string" && message.content !== "")
      content.push({ type: "text", text: message.content });
    const ids = new Set<string>();
    for (const toolCall of message?.tool_calls ?? []) {
      const id = toolCall.id && !ids.has(String(toolCall.id)) ? String(toolCall.id) : this.config.generateId();
      ids.add(id);
      const input =
        typeof toolCall.function.arguments === "string"
          ? toolCall.function.arguments
          : JSON.stringify(toolCall.function.arguments ?? {});
      content.push({
        type: "tool-call",
        toolCallId: id,
        toolName: toolCall.function.name,
        input: input.trim() || "{}",
      });
    }
    return {
      content,
      finishReason: finishReasonFor(this.specificationVersion, finishReason(choice?.finish_reason, ids.size > 0)),
      usage: usageFor(this.specificationVersion, usageOf(out.usage)),
      request: { url: call.url(), body: call.body },
      response: { ...responseMetadata(out), headers: call.headers, body: out },
      warnings: warningsFor(this.specificationVersion, call.warnings),
      ...(out.served ? { providerMetadata: { hfkit: servedMetadata(out.served) } } : {}),
    };
  }

  /** An answer streamed as parts (`streamText`); usage is asked for with `stream_options.include_usage`. */
  async doStream(options: CallOptions): Promise<StreamResult<V>> {
    const call = this.prepare(options, true);
    const iterator = chatCompletionStream(call.sent, call.options);
    let pending: IteratorResult<ChatCompletionStreamOutput, undefined> | undefined;
    try {
      // The first chunk is awaited here, so an error before any answer rejects doStream itself.
      pending = await iterator.next();
    } catch (error) {
      throw toAiSdkError(error, call.info());
    }
    const mapper = new StreamMapper(options.includeRawChunks === true, this.config.generateId);
    const next = (): Promise<IteratorResult<ChatCompletionStreamOutput, undefined>> =>
      mapper.finished && !mapper.usageSeen ? nextWithin(iterator, USAGE_WAIT_MS) : iterator.next();
    const version = this.specificationVersion;
    const enqueue = (controller: ReadableStreamDefaultController<StreamPart<V>>, part: StreamPart) =>
      controller.enqueue(streamPartFor(version, part));
    const stream = new ReadableStream<StreamPart<V>>({
      start(controller) {
        enqueue(controller, { type: "stream-start", warnings: call.warnings });
      },
      async pull(controller) {
        for (;;) {
          let result: IteratorResult<ChatCompletionStreamOutput, undefined>;
          try {
            result = pending ?? (await next());
            pending = undefined;
          } catch (error) {
            if (error instanceof AbortError) return controller.error(error);
            for (const part of mapper.end(toAiSdkError(error, call.info()))) enqueue(controller, part);
            return controller.close();
          }
          if (result.done) {
            for (const part of mapper.end()) enqueue(controller, part);
            return controller.close();
          }
          const parts = mapper.chunk(result.value);
          for (const part of parts) enqueue(controller, part);
          if (parts.length > 0) return;
        }
      },
      async cancel() {
        await iterator.return(undefined);
      },
    });
    return { stream, request: { url: call.url(), body: call.body }, response: { headers: call.headers } };
  }

  /** The chat arguments, the SDK's options (abort signal, headers, a recorder of answers) and the warnings. */
  private prepare(options: CallOptions, stream: boolean) {
    const { jsonSchemaFormat, provider, fallbackModels, ...rest } = this.config.settings;
    // One provider is an option of every call; a list (or fallback models) makes the call fail over: arguments of its own.
    const failover = typeof provider !== "string" && provider !== undefined ? { provider } : {};
    const settings: Options = typeof provider === "string" ? { ...rest, provider } : rest;
    const { args, warnings } = toChatArgs(options, jsonSchemaFormat ?? jsonSchemaFormatFor(settings), stream);
    const body: ChatCompletionArgs = this.model === undefined ? args : { model: this.model, ...args };
    const sent: ChatCompletionArgs = {
      ...body,
      ...failover,
      ...(fallbackModels ? { fallbackModels } : {}),
      accessToken: this.config.accessToken(),
    };
    const {
      options: sdkOptions,
      headers,
      url,
    } = callContext(settings, options, () =>
      targetUrl(settings, this.modelId, "/v1/chat/completions", ROUTER_CHAT_URL),
    );
    const info = (): CallInfo => ({ url: url(), body, prompt: options.prompt });
    // The call's own health, routing and hedge (providerOptions.hfkit) over the settings'.
    const perCall = { ...sdkOptions, ...routingOptionsOf(options.providerOptions) };
    return { sent, body, options: perCall, warnings, headers, url, info };
  }
}

/** The iterator's next chunk, or its end after `ms` without one (the body is then cancelled). */
async function nextWithin<T>(
  iterator: AsyncGenerator<T, undefined>,
  ms: number,
): Promise<IteratorResult<T, undefined>> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const next = iterator.next();
  const timeout = new Promise<"timeout">((resolve) => (timer = setTimeout(() => resolve("timeout"), ms)));
  try {
    const winner = await Promise.race([next, timeout]);
    if (winner !== "timeout") return winner;
    next.catch(() => {});
    await iterator.return(undefined);
    return { done: true, value: undefined };
  } finally {
    clearTimeout(timer);
  }
}
