// Row 6: requests sent per streamed chat against @hfkit/mock-hub, first call and the calls after.
import { chatCompletionStream, InferenceClient } from "@hfkit/inference";
import { startMockHub } from "@hfkit/mock-hub";
import { InferenceClient as HfInferenceClient } from "@huggingface/inference";
import OpenAI from "openai";
import { consume } from "./clients.mjs";

const messages = [{ role: "user", content: "What is the capital of France?" }];
const CALLS = 3;

/** Requests each of `CALLS` calls sent: counted at the client's fetch and at the hub. */
async function perCall(hub, open) {
  const counts = [];
  for (let i = 0; i < CALLS; i++) {
    let fetched = 0;
    const fetch = (input, init) => (fetched++, globalThis.fetch(input, init));
    const before = hub.requests.length;
    await consume(await open(fetch));
    counts.push(Math.max(fetched, hub.requests.length - before));
  }
  return { first: counts[0], after: Math.max(...counts.slice(1)) };
}

export async function measureRequests() {
  const hub = await startMockHub();
  try {
    const hfkit = (options) => (fetch) => new InferenceClient("hf_bench", { baseUrl: hub.url, fetch, ...options });
    return {
      known: {
        hfkit: await perCall(hub, (f) =>
          hfkit({ backend: "tgi" })(f).chatCompletionStream({ model: "hfkit/tgi-3.2", messages }),
        ),
        "hfkit-fn": await perCall(hub, (fetch) =>
          chatCompletionStream({ model: "hfkit/tgi-3.1", messages }, { baseUrl: hub.url, fetch, backend: "tgi" }),
        ),
        hf: await perCall(hub, (fetch) =>
          new HfInferenceClient("hf_bench", { fetch }).chatCompletionStream({
            endpointUrl: `${hub.url}/models/hfkit/tgi-3.2`,
            messages,
          }),
        ),
        openai: await perCall(hub, (fetch) =>
          new OpenAI({
            apiKey: "bench",
            baseURL: `${hub.url}/models/hfkit/tgi-3.2/v1`,
            fetch,
            maxRetries: 0,
          }).chat.completions.create({
            model: "tgi",
            messages,
            stream: true,
          }),
        ),
      },
      detectedTgi: {
        hfkit: await perCall(hub, (f) => hfkit({})(f).chatCompletionStream({ model: "hfkit/tgi-2.4.1", messages })),
      },
      detectedPipeline: {
        hfkit: await perCall(hub, (f) =>
          hfkit({})(f).chatCompletionStream({ model: "hfkit/transformers-chat", messages }),
        ),
      },
    };
  } finally {
    await hub.close();
  }
}
