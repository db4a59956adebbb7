import type { Backend } from "../types.js";
import { compareVersions, imageSha } from "../version.js";

/** What differs between the OpenAI-protocol servers behind chat: one row of rules per server. */

export type OpenAiServer = "vllm" | "sglang" | "llamacpp";

type Json = Record<string, unknown>;

/** When `usage` rides on every chunk: with `continuous_usage_stats` and `include_usage` (vLLM), with it alone (SGLang), never. */
export type ContinuousUsage = "withIncludeUsage" | "alone" | "never";

export interface Dialect {
  /** The version emulated when the model sets no `serverVersion`. */
  defaultVersion: string;
  /** The delta / message keys that carry the reasoning. */
  reasoningKeys(version: string): readonly string[];
  /** Keys every delta and message carries, `null` when unused (SGLang's pydantic models dump them all). */
  nullKeys: readonly string[];
  /** The first chunk's delta. */
  roleDelta: Json;
  /** The delta of the last chunk, the one with `finish_reason`. */
  finishDelta: Json;
  /** Added to every choice. */
  choiceExtras: Json;
  /** `"usage": null` on chunks that carry no usage. */
  usageNull: boolean;
  continuousUsage: ContinuousUsage;
  /** llama.cpp: `timings` on the finish chunk, `prompt_progress` chunks with `return_progress`. */
  llamaExtras: boolean;
  idPrefix: string;
  /** A tool call's id, from 32 stable hex digits: vLLM's `chatcmpl-tool-…`, SGLang's `call_…` (24), llama.cpp's bare 32. */
  toolCallId(hex: string): string;
  /** llama.cpp: `{"type": "json_object", "schema": …}` constrains to that schema. */
  jsonObjectSchema: boolean;
  systemFingerprint(version: string): string | undefined;
  /** `type` of a 400 for a body the server cannot read. */
  requestErrorType: string;
  /** `type` and `code` of an error inside a 200 stream (followed by `[DONE]`). */
  streamError: { type: string; code: number };
  /** `owned_by` in `GET /v1/models`. */
  ownedBy: string;
}

/** vLLM renamed `reasoning_content` to `reasoning` (PR #27752, 0.11: both sent) and dropped the old name (PR #33402, 0.12). */
function vllmReasoningKeys(version: string): readonly string[] {
  if (compareVersions(version, "0.11.0") < 0) return ["reasoning_content"];
  if (compareVersions(version, "0.12.0") < 0) return ["reasoning", "reasoning_content"];
  return ["reasoning"];
}

export const DIALECTS: Readonly<Record<OpenAiServer, Dialect>> = {
  vllm: {
    defaultVersion: "0.12.0",
    reasoningKeys: vllmReasoningKeys,
    nullKeys: [],
    roleDelta: { role: "assistant", content: "" },
    finishDelta: { content: "" },
    choiceExtras: { stop_reason: null },
    usageNull: false,
    continuousUsage: "withIncludeUsage",
    llamaExtras: false,
    idPrefix: "chatcmpl-",
    toolCallId: (hex) => `chatcmpl-tool-${hex}`,
    jsonObjectSchema: false,
    systemFingerprint: () => undefined,
    requestErrorType: "BadRequestError",
    streamError: { type: "BadRequestError", code: 400 },
    ownedBy: "vllm",
  },
  sglang: {
    defaultVersion: "0.5.0",
    reasoningKeys: () => ["reasoning_content"],
    nullKeys: ["role", "content", "reasoning_content"],
    roleDelta: { role: "assistant", content: "" },
    finishDelta: {},
    choiceExtras: { matched_stop: null },
    usageNull: true,
    continuousUsage: "alone",
    llamaExtras: false,
    idPrefix: "",
    toolCallId: (hex) => `call_${hex.slice(0, 24)}`,
    jsonObjectSchema: false,
    systemFingerprint: () => undefined,
    requestErrorType: "BadRequestError",
    streamError: { type: "BadRequestError", code: 400 },
    ownedBy: "sglang",
  },
  llamacpp: {
    defaultVersion: "b6000",
    reasoningKeys: () => ["reasoning_content"],
    nullKeys: [],
    roleDelta: { role: "assistant", content: null },
    finishDelta: {},
    choiceExtras: {},
    usageNull: false,
    continuousUsage: "never",
    llamaExtras: true,
    idPrefix: "chatcmpl-",
    toolCallId: (hex) => hex,
    jsonObjectSchema: true,
    systemFingerprint: (version) => `${version}-${imageSha(version)}`,
    requestErrorType: "invalid_request_error",
    streamError: { type: "server_error", code: 500 },
    ownedBy: "llamacpp",
  },
};

export function isOpenAiServer(backend: Backend): backend is OpenAiServer {
  return backend in DIALECTS;
}

/** `{"error": {"message", "type", "code"}}`, the OpenAI-style error body of these servers. */
export function openAiErrorBody(message: string, type: string, code: number): Json {
  return { error: { message, type, code } };
}
