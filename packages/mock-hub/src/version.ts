/** TGI behaviour changes, each with the first version that has it. */
const SINCE = {
  /** `temperature: 0` on chat means greedy (earlier: rejected). */
  greedyTemperatureZero: "2.0.2",
  /** `data: ` with a space (axum 0.7); earlier `data:`. */
  spacedData: "2.1.0",
  /** `"object"` first, `chat.completion(.chunk)`; earlier `"id"` first, `text_completion`. */
  chatObjects: "2.1.0",
  /** `stop` instead of `eos_token` / `stop_sequence` on the chat route. */
  openAiFinishReasons: "2.1.0",
  /** The EOS chunk has `content: ""` instead of the token text. */
  hiddenSpecialTokens: "2.1.0",
  /** `model` may be left out of a chat request. */
  optionalModel: "2.1.0",
  /** `data: [DONE]` ends chat streams. */
  done: "2.2.0",
  /** `"usage": null` in chunks, `stream_options.include_usage`, `input_length` in stream details. */
  usage: "2.3.0",
  /** In-stream chat errors as `{"error":{"message","http_status_code"}}`. */
  openAiStreamErrors: "2.4.1",
  /** No 100-token default for `max_tokens`. */
  unboundedMaxTokens: "3.0.0",
  /** The chat route reads `response_format` (earlier: ignored); `json_object` is an alias of the `json` grammar. */
  responseFormat: "2.1.0",
  /** `response_format` beside `tools` is a `tool_error` ("Tool error: …"); earlier its own `grammar and tools` type. */
  grammarToolsToolError: "2.4.1",
  /** Non-streamed tool call `arguments` as a JSON string (earlier: an object). */
  toolArgumentsString: "3.2.0",
  /** `delta.tool_calls` is an array, its `id` the next integer of the conversation. */
  toolCallsArray: "3.2.0",
  /** The grammar `{"type": "json_schema", "value": {"name", "schema"}}`. */
  jsonSchemaGrammar: "3.3.0",
} as const;

export type TgiFeature = keyof typeof SINCE;

export function compareVersions(a: string, b: string): number {
  const left = a.split(".").map(Number);
  const right = b.split(".").map(Number);
  for (let i = 0; i < 3; i++) {
    const diff = (left[i] ?? 0) - (right[i] ?? 0);
    if (diff !== 0) return diff;
  }
  return 0;
}

export function supports(version: string, feature: TgiFeature): boolean {
  return compareVersions(version, SINCE[feature]) >= 0;
}

/** Short commit shas of real images where recorded; a stable stand-in for the others. */
const KNOWN_SHAS: Record<string, string> = {
  "2.0.1": "2d0a717",
  "2.0.2": "dccab72",
  "3.0.1": "bb9095a",
};

export function imageSha(version: string): string {
  let hash = 0x811c9dc5;
  for (const char of version) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return KNOWN_SHAS[version] ?? hash.toString(16).padStart(8, "0").slice(0, 7);
}

export function systemFingerprint(version: string): string {
  return `${version}-sha-${imageSha(version)}`;
}
