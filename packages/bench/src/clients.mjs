// Each client streaming one chat through an injected `fetch`; the same consumer loop for all.
import * as hfkit from "@hfkit/inference";
import { InferenceClient as HfInferenceClient } from "@huggingface/inference";
import OpenAI from "openai";
import { floorStream, parserStream } from "./sse.mjs";

const ENDPOINT = "http://bench.invalid";
const MODEL = "hfkit/tgi-3.2";
const messages = [{ role: "user", content: "What is the capital of France?" }];

/** hfkit's two ways in, for the published build or another build of the same sources. */
export function hfkitStreams({ InferenceClient, chatCompletionStream }) {
  return {
    hfkit: async (fetch) =>
      new InferenceClient("hf_bench", { fetch, endpointUrl: ENDPOINT, backend: "tgi" }).chatCompletionStream({
        model: MODEL,
        messages,
      }),
    "hfkit-fn": async (fetch) =>
      chatCompletionStream(
        { accessToken: "hf_bench", endpointUrl: ENDPOINT, model: MODEL, messages },
        { fetch, backend: "tgi" },
      ),
    // The same stream told to an observer that does nothing: the price of `observe` itself.
    "hfkit-observed": async (fetch) =>
      new InferenceClient("hf_bench", {
        fetch,
        endpointUrl: ENDPOINT,
        backend: "tgi",
        observe: () => {},
      }).chatCompletionStream({ model: MODEL, messages }),
  };
}

/** key -> async (fetch) => the AsyncIterable of chat chunks each app would loop over. */
export const STREAMS = {
  ...hfkitStreams(hfkit),
  hf: async (fetch) =>
    new HfInferenceClient("hf_bench", { fetch }).chatCompletionStream({
      endpointUrl: ENDPOINT,
      model: MODEL,
      messages,
    }),
  openai: (fetch) =>
    new OpenAI({ apiKey: "bench", baseURL: `${ENDPOINT}/v1`, fetch, maxRetries: 0 }).chat.completions.create({
      model: MODEL,
      messages,
      stream: true,
    }),
  floor: async (fetch) =>
    floorStream((await fetch(`${ENDPOINT}/v1/chat/completions`, { method: "POST", body: "{}" })).body),
  parser: async (fetch) =>
    parserStream((await fetch(`${ENDPOINT}/v1/chat/completions`, { method: "POST", body: "{}" })).body),
};

/** Reads a stream to its end, touching each chunk's content as an app would; answers the count. */
export async function consume(stream) {
  let count = 0;
  let chars = 0;
  for await (const chunk of stream) {
    count++;
    chars += chunk.choices[0]?.delta?.content?.length ?? 0;
  }
  return { count, chars };
}
