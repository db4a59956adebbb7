// The small app every runtime runs against the mock hub. Plain JavaScript, so each runtime loads it
// as a user's code would be loaded; `sdk` is the module namespace of the built @hfkit/inference.

/** Models the host's mock hub serves (see test/hub.ts). */
export const MODELS = {
  chat: "hfkit/tgi-3.2",
  linger: "runtime/lingering-tgi-2.0", // TGI 2.0.2: no [DONE], and the socket stays open after the last chunk
  invalid: "hfkit/tgi-2.0", // max_tokens 5000 > max_total_tokens: a validation error inside a 200 stream
};

const MESSAGES = [{ role: "user", content: "What is the capital of France?" }];

/** The client every scenario uses, on the host's mock hub. */
export function hubClient(sdk, hubUrl) {
  return new sdk.InferenceClient("hf_runtime_matrix", { baseUrl: `${hubUrl}/hf-inference`, timeout: 20_000 });
}

export async function runApp(sdk, hubUrl) {
  const client = hubClient(sdk, hubUrl);
  return {
    chat: await streamChat(client, MODELS.chat),
    linger: await streamChat(client, MODELS.linger),
    inStreamError: await streamError(sdk, client),
    relay: await readRelay(relayResponse(sdk, client, "chat")),
    relayError: await readRelay(relayResponse(sdk, client, "error")),
    // A task and the Responses API: in Node, Deno and Bun each is loaded on its first call (the ES modules).
    task: await client.featureExtraction({ model: "hfkit/feature-extraction", inputs: "Paris" }),
    responses: (await client.responses({ model: MODELS.chat, input: MESSAGES[0].content, max_output_tokens: 50 }))
      .output_text,
  };
}

/**
 * A stream handed on as a web server does (`toResponse`): the TGI 3.2 chat, or the validation error
 * inside a 200 stream. Workers and edge functions answer this Response as it is.
 */
export function relayResponse(sdk, client, which) {
  const model = which === "error" ? MODELS.invalid : MODELS.chat;
  const max_tokens = which === "error" ? 5000 : 50;
  return sdk.toResponse(client.chatCompletionStream({ model, messages: MESSAGES, max_tokens }));
}

/** A relayed Response read as an OpenAI client would: its type, the text of its chunks, its end. */
export async function readRelay(response) {
  const raw = await response.text();
  const events = raw.split("\n\n").filter((e) => e !== "");
  const last = events.at(-1);
  let text = "";
  let error;
  for (const event of events) {
    if (!event.startsWith("data: ") || event === "data: [DONE]") continue;
    const data = JSON.parse(event.slice(6));
    if (data.error) error = data.error;
    else text += data.choices[0]?.delta?.content ?? "";
  }
  return {
    status: response.status,
    contentType: response.headers.get("content-type"),
    events: events.length,
    text,
    last,
    error,
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
    for await (const _chunk of client.chatCompletionStream({
      model: MODELS.invalid,
      messages: MESSAGES,
      max_tokens: 5000,
    })) {
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
