/**
 * The AI SDK's model specifications (v2: `ai` 5, v3: `ai` 6, v4: `ai` 7) as far as this provider reads and
 * writes them. Declared here so that the published types need no `@ai-sdk/provider`: what we read is
 * typed loosely enough to take any version's value, what we write exactly.
 */

/** The specification a model follows: `"v2"` for `ai` 5, `"v3"` for `ai` 6, `"v4"` for `ai` 7. */
export type SpecVersion = "v2" | "v3" | "v4";

/** A JSON value. */
export type JSONValue = null | string | number | boolean | { [key: string]: JSONValue } | JSONValue[];
/** Metadata a result carries, by provider name. */
export type ProviderMetadata = Record<string, Record<string, JSONValue>>;
/** `providerOptions` of a call, by provider name. */
export type ProviderOptions = Record<string, Record<string, unknown>>;

/** A warning (v3 and v4). */
export type Warning =
  { type: "unsupported" | "compatibility"; feature: string; details?: string } | { type: "other"; message: string };
/** A warning of v2. */
export type WarningV2 =
  { type: "unsupported-setting"; setting: string; details?: string } | { type: "other"; message: string };
/** A warning of v2 for models whose `setting` must name a call option: given as `other`. */
export type OtherWarning = { type: "other"; message: string };
/** A language model's warning in version V. */
export type WarningOf<V extends SpecVersion> = V extends "v2" ? WarningV2 : Warning;
/** The warning of another model type in version V. */
export type ModelWarningOf<V extends SpecVersion> = V extends "v2" ? OtherWarning : Warning;

/** Why an answer ended (v3 and v4). */
export interface FinishReason {
  unified: "stop" | "length" | "content-filter" | "tool-calls" | "error" | "other";
  raw: string | undefined;
}
/** Why an answer ended (v2). */
export type FinishReasonV2 = "stop" | "length" | "content-filter" | "tool-calls" | "error" | "other" | "unknown";
export type FinishReasonOf<V extends SpecVersion> = V extends "v2" ? FinishReasonV2 : FinishReason;

/** Token counts (v3 and v4). */
export interface Usage {
  inputTokens: {
    total: number | undefined;
    noCache: number | undefined;
    cacheRead: number | undefined;
    cacheWrite: number | undefined;
  };
  outputTokens: { total: number | undefined; text: number | undefined; reasoning: number | undefined };
  raw?: { [key: string]: JSONValue };
}
/** Token counts (v2). */
export interface UsageV2 {
  inputTokens: number | undefined;
  outputTokens: number | undefined;
  totalTokens: number | undefined;
  reasoningTokens?: number | undefined;
  cachedInputTokens?: number | undefined;
}
export type UsageOf<V extends SpecVersion> = V extends "v2" ? UsageV2 : Usage;

/** A file's data: v2 and v3 give it as is, v4 tagged. */
export type FileData =
  | string
  | Uint8Array
  | URL
  | { type: "data"; data: string | Uint8Array }
  | { type: "url"; url: URL; originalUrl?: string }
  | { type: "text"; text: string }
  | { type: "reference"; reference: unknown };

export interface TextPart {
  type: "text";
  text: string;
}
export interface FilePart {
  type: "file";
  mediaType: string;
  data: FileData;
  originalUrl?: string;
}
export interface ReasoningPart {
  type: "reasoning";
  text: string;
}
export interface ToolCallPart {
  type: "tool-call";
  toolCallId: string;
  toolName: string;
  input: unknown;
  providerExecuted?: boolean;
}
/** A tool's result as any version gives it. */
export type ToolResultOutput =
  | { type: "text" | "error-text"; value: string }
  | { type: "json" | "error-json"; value: unknown }
  | { type: "execution-denied"; reason?: string }
  | { type: "content"; value: ReadonlyArray<{ type: string; text?: string }> };
export interface ToolResultPart {
  type: "tool-result";
  toolCallId: string;
  toolName: string;
  output: ToolResultOutput;
}
export interface OtherPart {
  type: "tool-approval-response" | "custom" | "reasoning-file";
}

/** The prompt of any version. */
export type Prompt = ReadonlyArray<
  | { role: "system"; content: string }
  | { role: "user"; content: ReadonlyArray<TextPart | FilePart> }
  | {
      role: "assistant";
      content: ReadonlyArray<TextPart | FilePart | ReasoningPart | ToolCallPart | ToolResultPart | OtherPart>;
    }
  | { role: "tool"; content: ReadonlyArray<ToolResultPart | OtherPart> }
>;

/** A tool as any version gives it: a function, or one of a provider's (`provider` in v3/v4, `provider-defined` in v2). */
export type CallTool =
  | { type: "function"; name: string; description?: string; inputSchema: unknown }
  | { type: "provider" | "provider-defined"; id: string; name: string };

/** A language model call's options, of any version. */
export interface CallOptions {
  prompt: Prompt;
  maxOutputTokens?: number;
  temperature?: number;
  stopSequences?: string[];
  topP?: number;
  topK?: number;
  presencePenalty?: number;
  frequencyPenalty?: number;
  responseFormat?: { type: "text" } | { type: "json"; schema?: unknown; name?: string; description?: string };
  seed?: number;
  tools?: ReadonlyArray<CallTool>;
  toolChoice?: { type: "auto" | "none" | "required" } | { type: "tool"; toolName: string };
  includeRawChunks?: boolean;
  abortSignal?: AbortSignal;
  headers?: Record<string, string | undefined>;
  /** v4 only. */
  reasoning?: string;
  providerOptions?: ProviderOptions;
}

/** The answer's id, model and time. */
export interface ResponseMetadata {
  id?: string;
  modelId?: string;
  timestamp?: Date;
}

/** What a language model answers, not streamed. */
export type Content =
  | TextPart
  | { type: "reasoning"; text: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: string };

/** A streamed part, as version V has it. */
export type StreamPart<V extends SpecVersion = "v4"> =
  | { type: "text-start" | "text-end" | "reasoning-start" | "reasoning-end" | "tool-input-end"; id: string }
  | { type: "text-delta" | "reasoning-delta" | "tool-input-delta"; id: string; delta: string }
  | { type: "tool-input-start"; id: string; toolName: string }
  | { type: "tool-call"; toolCallId: string; toolName: string; input: string }
  | { type: "stream-start"; warnings: Array<WarningOf<V>> }
  | ({ type: "response-metadata" } & ResponseMetadata)
  | { type: "finish"; usage: UsageOf<V>; finishReason: FinishReasonOf<V>; providerMetadata?: ProviderMetadata }
  | { type: "raw"; rawValue: unknown }
  | { type: "error"; error: unknown };

/** The result of `doGenerate`, as version V has it. */
export interface GenerateResult<V extends SpecVersion = "v4"> {
  content: Content[];
  finishReason: FinishReasonOf<V>;
  usage: UsageOf<V>;
  request: { url: string; body: unknown };
  response: ResponseMetadata & { headers: Record<string, string>; body: unknown };
  warnings: Array<WarningOf<V>>;
  providerMetadata?: ProviderMetadata;
}

/** The result of `doStream`, as version V has it. */
export interface StreamResult<V extends SpecVersion = "v4"> {
  stream: ReadableStream<StreamPart<V>>;
  request: { url: string; body: unknown };
  response: { headers: Record<string, string> };
}

/** What every model's call takes besides its input. */
export interface BaseCallOptions {
  abortSignal?: AbortSignal;
  headers?: Record<string, string | undefined>;
  providerOptions?: ProviderOptions;
}

/** The response of a model of another type. */
export interface ModelResponse {
  timestamp: Date;
  modelId: string;
  headers: Record<string, string> | undefined;
}
