/**
 * The Hub's and the router's URLs from the environment, as `huggingface_hub` names them: `HF_ENDPOINT` (the Hub: model
 * data, the provider mapping) and `HF_INFERENCE_ENDPOINT` (the router: chat, its catalog, hf-inference and every
 * provider's routes). Pointed at a mock hub, code with no URL option runs offline, unchanged. An option still wins.
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import {
  chatCompletion,
  chatCompletionStream,
  featureExtraction,
  InferenceClient,
  InputError,
  listModels,
  textToImage,
} from "../src/index";
import { mappingMemory } from "../src/targets/providers/mapping";

let hub: MockHub;
const MODELS = {
  "org/image": {
    inferenceProviderMapping: { together: { providerId: "t/image", task: "text-to-image", status: "live" as const } },
  },
};
const messages = [{ role: "user", content: "Hi" }];
const TOKEN = "hf_environment_urls";

beforeAll(async () => {
  hub = await startMockHub({ models: MODELS });
});
afterAll(() => hub.close());
beforeEach(() => {
  hub.reset();
  mappingMemory.clear();
  vi.stubEnv("HF_ENDPOINT", hub.url);
  vi.stubEnv("HF_INFERENCE_ENDPOINT", `${hub.url}/`);
});
afterEach(() => vi.unstubAllEnvs());

const paths = () => hub.requests.map((r) => `${r.method} ${r.path.split("?")[0]}`);

describe("with HF_ENDPOINT and HF_INFERENCE_ENDPOINT set, no URL option", () => {
  it("chat, a streamed chat and the catalog go to the router there", async () => {
    const out = await chatCompletion({ accessToken: TOKEN, model: "meta-llama/Llama-3.1-8B-Instruct", messages });
    expect(out.choices[0]?.message.content).toBeTruthy();
    for await (const _ of new InferenceClient(TOKEN).chatCompletionStream({
      model: "meta-llama/Llama-3.1-8B-Instruct",
      messages,
    }))
      void _;
    await listModels({ accessToken: TOKEN, refresh: true });
    expect(paths()).toEqual(["POST /v1/chat/completions", "POST /v1/chat/completions", "GET /v1/models"]);
  });

  it("hf-inference under the router there", async () => {
    await featureExtraction({ accessToken: TOKEN, model: "hfkit/feature-extraction", inputs: "a sentence" });
    expect(paths()).toEqual(["POST /hf-inference/models/hfkit/feature-extraction/pipeline/feature-extraction"]);
  });

  it("a provider: its mapping from the Hub there, its route under the router there", async () => {
    const image = await textToImage({ accessToken: TOKEN, model: "org/image", provider: "together", inputs: "a cat" });
    expect(image).toBeInstanceOf(Blob);
    expect(paths()[0]).toBe("GET /api/models/org/image");
    expect(paths()).toContain("POST /together/v1/images/generations");
  });

  it("an option wins over the environment", async () => {
    const elsewhere = await startMockHub();
    try {
      await chatCompletion(
        { accessToken: TOKEN, model: "meta-llama/Llama-3.1-8B-Instruct", messages },
        { routerUrl: elsewhere.url },
      );
      expect(hub.requests).toEqual([]);
      expect(elsewhere.requests.map((r) => r.path)).toEqual(["/v1/chat/completions"]);
    } finally {
      await elsewhere.close();
    }
  });

  it("a malformed value is an InputError naming the variable, before any request; a blank one is unset", async () => {
    vi.stubEnv("HF_INFERENCE_ENDPOINT", "router.local:8080");
    const error = await chatCompletion({ accessToken: TOKEN, model: "m/m", messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe("HF_INFERENCE_ENDPOINT");
    expect((error as Error).message).toContain("`HF_INFERENCE_ENDPOINT` must be an absolute http:// or https:// URL");
    const streamed = chatCompletionStream({ accessToken: TOKEN, model: "m/m", messages }).next();
    await expect(streamed).rejects.toThrow(InputError);
    vi.stubEnv("HF_ENDPOINT", "ftp://hub.local");
    vi.stubEnv("HF_INFERENCE_ENDPOINT", hub.url);
    await expect(
      textToImage({ accessToken: TOKEN, model: "org/image", provider: "together", inputs: "a cat" }),
    ).rejects.toThrow("`HF_ENDPOINT` must be");
    expect(hub.requests).toEqual([]);
    vi.stubEnv("HF_INFERENCE_ENDPOINT", "   ");
    const fetched: string[] = [];
    await chatCompletion(
      { accessToken: TOKEN, model: "m/m", messages },
      { fetch: (url) => (fetched.push(String(url)), Promise.reject(new TypeError("offline"))), maxRetries: 0 },
    ).catch(() => {});
    expect(fetched).toEqual(["https://router.huggingface.co/v1/chat/completions"]);
  });
});
