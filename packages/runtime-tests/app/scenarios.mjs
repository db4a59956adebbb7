// The small app every runtime runs against the mock hub. Plain JavaScript, so each runtime loads it
// as a user's code would be loaded; `sdk` is the module namespace of the built @hfkit/inference.

/** Models the host's mock hub serves (see test/hub.ts). */
export const MODELS = {
  chat: "hfkit/tgi-3.2",
  linger: "runtime/lingering-tgi-2.0", // TGI 2.0.2: no [DONE], and the socket stays open after the last chunk
  invalid: "hfkit/tgi-2.0", // max_tokens 5000 > max_total_tokens: a validation error inside a 200 stream
};

const MESSAGES = [{ role: "user", content: "What is the capital of France?" }];

export async function runApp(sdk, hubUrl) {
  const client = new sdk.InferenceClient("hf_runtime_matrix", { baseUrl: `${hubUrl}/hf-inference`, timeout: 20_000 });
  return {
    chat: await streamChat(client, MODELS.chat),
    linger: await streamChat(client, MODELS.linger),
    inStreamError: await streamError(sdk, client),
  };
}

async function streamChat(client, model) {
  const started = Date.now();
  let text = "";
  let chunks = 0;
  for await (const chunk of client.chatCompletionStream({ model, messages: MESSAGES, max_tokens: 50 })) {
    text += chunk.choices[0]?.delta?.content ?? "";
    chunks++;
  }
  return { text, chunks, ms: Date.now() - started };
}

async function streamError(sdk, client) {
  let yielded = 0;
  try {
    for await (const _chunk of client.chatCompletionStream({ model: MODELS.invalid, messages: MESSAGES, max_tokens: 5000 })) {
      yielded++;
    }
    return { thrown: false, yielded };
  } catch (error) {
    return {
      thrown: true,
      yielded,
      name: error?.name,
      isValidationError: error instanceof sdk.ValidationError,
      isInferenceError: error instanceof sdk.InferenceError,
      status: error?.status,
      message: String(error?.message).slice(0, 200),
    };
  }
}

/** Which runtime this is, as it says itself. */
export function runtimeName() {
  if (typeof globalThis.Deno !== "undefined") return `deno ${globalThis.Deno.version.deno}`;
  if (typeof globalThis.Bun !== "undefined") return `bun ${globalThis.Bun.version}`;
  if (typeof globalThis.EdgeRuntime !== "undefined") return `edge-runtime ${globalThis.EdgeRuntime}`;
  if (typeof globalThis.process?.versions?.node === "string" && typeof globalThis.document === "undefined") {
    return `node ${globalThis.process.versions.node}`;
  }
  return globalThis.navigator?.userAgent ?? "unknown";
}
