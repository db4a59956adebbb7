// A Cloudflare Worker (src/index.js of a wrangler project): POST / with {"prompt": "..."} streams the answer
// as plain text. `wrangler secret put HF_TOKEN`; HF_BASE_URL (optional var) names an hf-inference-style server
// instead of the HF router. No `nodejs_compat` flag is needed.
import { InferenceClient } from "@hfkit/inference";

const MODEL = "meta-llama/Llama-3.1-8B-Instruct";

export default {
  async fetch(request, env) {
    if (request.method !== "POST")
      return new Response('POST {"prompt": "..."}\n', { status: 405, headers: { allow: "POST" } });
    const { prompt } = await request.json();
    const client = new InferenceClient(env.HF_TOKEN, { baseUrl: env.HF_BASE_URL || undefined });
    const chunks = client.chatCompletionStream(
      { model: MODEL, messages: [{ role: "user", content: String(prompt) }], max_tokens: 500 },
      { signal: request.signal },
    );
    const encoder = new TextEncoder();
    const iterator = chunks[Symbol.asyncIterator]();
    const body = new ReadableStream({
      // One chunk per pull: a slow client slows the read from the model instead of piling text up.
      async pull(controller) {
        try {
          const { done, value } = await iterator.next();
          if (done) return controller.close();
          controller.enqueue(encoder.encode(value.choices[0]?.delta?.content ?? ""));
        } catch (error) {
          controller.enqueue(encoder.encode(`\n[${error.name}: ${error.message}]\n`));
          controller.close();
        }
      },
      cancel: () => void iterator.return?.(),
    });
    return new Response(body, {
      headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" },
    });
  },
};
