/**
 * Tasks other than chat on the inference providers, over loopback HTTP against the mock hub: the Hub's
 * mapping looked up (once per model, shared, bounded), the provider's format through the router, and the
 * same answers as `@huggingface/inference` 4.13.30 pointed at the same hub (by its `fetch` option).
 */
import * as hf from "@huggingface/inference";
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as ours from "../src/index";
import { mappingMemory } from "../src/targets/providers/mapping";

let hub: MockHub;
const MODELS = {
  "org/chat": { providers: ["together"] },
  "org/mismatch": {
    inferenceProviderMapping: { together: { providerId: "t/speech", task: "text-to-speech", status: "live" as const } },
  },
  ...Object.fromEntries(
    ["a", "b", "c", "d"].map((k) => [
      `org/cache-${k}`,
      {
        inferenceProviderMapping: {
          together: { providerId: `t/cache-${k}`, task: "text-to-image", status: "live" as const },
        },
      },
    ]),
  ),
};
beforeAll(async () => {
  hub = await startMockHub({ models: MODELS });
});
afterAll(() => hub.close());
beforeEach(() => {
  mappingMemory.clear();
  hub.reset();
});

const realFetch = globalThis.fetch;
/** Sends the router's and the Hub's URLs to the mock hub. */
const toHub = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
  realFetch(String(url).replace(/^https:\/\/(router\.)?huggingface\.co/, hub.url), init);
// The mock hub serves the media it names on loopback, while each call's target is the router: let it through.
const options = () => ({ hubUrl: hub.url, allowPrivateNetwork: true, fetch: toHub, logger: { warn() {} } });
const lookups = (model: string) => hub.requests.filter((r) => r.path.startsWith(`/api/models/${model}?`));
const sentTo = (prefix: string) => hub.requests.filter((r) => r.path.startsWith(prefix));

async function plain(value: unknown): Promise<unknown> {
  return value instanceof Blob ? { type: value.type, bytes: [...new Uint8Array(await value.arrayBuffer())] } : value;
}

describe("textToImage on together", () => {
  const args = { accessToken: "hf_test", model: "hfkit/text-to-image", provider: "together" as const, inputs: "a cat" };

  it.each([undefined, "blob", "dataUrl", "json", "url"] as const)(
    "outputType %s: the same answer and the same request as 4.13",
    async (outputType) => {
      const mine = await ours.textToImage(args, { ...options(), outputType } as never);
      const [mineSent] = sentTo("/together/");
      const theirs = await hf.textToImage(args, { fetch: toHub, outputType } as never);
      const [, theirsSent] = sentTo("/together/");
      expect(await plain(mine)).toEqual(await plain(theirs));
      expect(mineSent?.body).toEqual(theirsSent?.body);
      expect(mineSent?.body).toEqual({
        prompt: "a cat",
        response_format: outputType === "url" ? "url" : "base64",
        model: "hfkit-together/flux",
      });
      expect(mineSent?.headers.authorization).toBe("Bearer hf_test");
      if (outputType === undefined) expect(mine).toBeInstanceOf(Blob);
      if (outputType === "url") expect(mine).toBe(`${hub.url}/files/hfkit-together%2Fflux.png`);
    },
  );

  it("parameters are spread in, num_inference_steps sent as steps, as 4.13 sends them", async () => {
    const withParams = { ...args, parameters: { num_inference_steps: 4, width: 512 } };
    await ours.textToImage(withParams, options());
    await hf.textToImage(withParams, { fetch: toHub });
    const [mine, theirs] = sentTo("/together/");
    expect(mine?.body).toEqual({
      prompt: "a cat",
      width: 512,
      steps: 4,
      response_format: "base64",
      model: "hfkit-together/flux",
    });
    expect(mine?.body).toEqual(theirs?.body);
  });

  it("a provider 5xx is a typed error with its status and body", async () => {
    hub.inject({ type: "serverError", status: 503, body: "upstream down" }, { model: "hfkit-together/flux", times: 1 });
    const error = await ours.textToImage(args, { ...options(), maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.ServerError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({ status: 503, body: "upstream down" });
  });
});

describe("textToImage on replicate (Prefer: wait)", () => {
  const args = {
    accessToken: "hf_test",
    model: "hfkit/text-to-image",
    provider: "replicate" as const,
    inputs: "a cat",
    parameters: { width: 512 },
  };

  it.each([undefined, "blob", "dataUrl", "json", "url"] as const)(
    "outputType %s: the same answer and the same request as 4.13",
    async (outputType) => {
      const mine = await ours.textToImage(args, { ...options(), outputType } as never);
      const theirs = await hf.textToImage(args, { fetch: toHub, outputType } as never);
      const [mineSent, theirsSent] = sentTo("/replicate/");
      // 4.13 labels every data: URL image/jpeg (documented); the bytes are the same.
      const label = (v: unknown) => (typeof v === "string" ? v.replace(/^data:image\/jpeg;/, "data:image/png;") : v);
      expect(await plain(mine)).toEqual(label(await plain(theirs)));
      expect(mineSent?.path).toBe("/replicate/v1/models/hfkit-replicate/flux/predictions");
      expect(mineSent?.body).toEqual({ input: { width: 512, prompt: "a cat" } });
      expect([mineSent?.path, mineSent?.body, mineSent?.headers.prefer]).toEqual([
        theirsSent?.path,
        theirsSent?.body,
        theirsSent?.headers.prefer,
      ]);
      expect(mineSent?.headers.prefer).toBe("wait");
      if (outputType === undefined) expect(mine).toBeInstanceOf(Blob);
      if (outputType !== "url" && outputType !== "json")
        expect(sentTo("/files/")[0]?.headers.authorization).toBeUndefined();
    },
  );

  it("a versioned model id posts to /v1/predictions with the version, as 4.13", async () => {
    const versioned = { ...args, model: "hfkit/text-to-image-versioned" };
    await ours.textToImage(versioned, { ...options(), outputType: "url" });
    await hf.textToImage(versioned, { fetch: toHub, outputType: "url" });
    const [mine, theirs] = sentTo("/replicate/");
    expect(mine?.path).toBe("/replicate/v1/predictions");
    expect(mine?.body).toEqual({ input: { width: 512, prompt: "a cat" }, version: "5599ed30" });
    expect(mine?.body).toEqual(theirs?.body);
  });

  it("an answer without an output URL is a provider output error", async () => {
    const fake = async (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
      String(url).includes("/replicate/")
        ? new Response(JSON.stringify({ status: "starting", output: null }), {
            headers: { "content-type": "application/json" },
          })
        : toHub(url, init);
    const error = await ours.textToImage(args, { ...options(), fetch: fake }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
  });
});

describe("textToImage on fal-ai (its queue)", () => {
  const args = {
    accessToken: "hf_test",
    model: "hfkit/text-to-image-fal",
    provider: "fal-ai" as const,
    inputs: "a cat",
    parameters: { seed: 1 },
  };
  // 4.13 polls fal's queue and fetches the image with the global fetch, not its `fetch` option.
  beforeEach(() => void vi.stubGlobal("fetch", toHub));
  afterEach(() => void vi.unstubAllGlobals());

  it.each([undefined, "dataUrl", "json", "url"] as const)(
    "outputType %s: the same answer and the same requests as 4.13",
    async (outputType) => {
      const mine = await ours.textToImage(args, { ...options(), outputType } as never);
      const mineSent = hub.requests
        .filter((r) => r.path.startsWith("/fal-ai/"))
        .map((r) => [r.method, r.path, r.body, r.headers.authorization]);
      hub.reset();
      const theirs = await hf.textToImage(args, { fetch: toHub, outputType } as never);
      const theirsSent = hub.requests
        .filter((r) => r.path.startsWith("/fal-ai/"))
        .map((r) => [r.method, r.path, r.body, r.headers.authorization]);
      const label = (v: unknown) => (typeof v === "string" ? v.replace(/^data:image\/jpeg;/, "data:image/png;") : v);
      expect(await plain(mine)).toEqual(label(await plain(theirs)));
      expect(mineSent).toEqual(theirsSent);
      expect(mineSent).toEqual([
        ["POST", "/fal-ai/hfkit-fal/flux?_subdomain=queue", { seed: 1, prompt: "a cat" }, "Bearer hf_test"],
        ["GET", "/fal-ai/hfkit-fal/flux/requests/mock-fal-5/status?_subdomain=queue", undefined, "Bearer hf_test"],
        ["GET", "/fal-ai/hfkit-fal/flux/requests/mock-fal-5?_subdomain=queue", undefined, "Bearer hf_test"],
      ]);
      if (outputType === undefined) expect(mine).toBeInstanceOf(Blob);
    },
  );

  it("a failed status poll is not retried by submitting the task again: one submit, the poll's typed error", async () => {
    let polled = 0;
    const failing = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
      String(url).endsWith("/status?_subdomain=queue")
        ? (polled++, Promise.resolve(new Response("busy", { status: 503 })))
        : toHub(url, init);
    const error = await ours
      .textToImage(args, { hubUrl: hub.url, allowPrivateNetwork: true, fetch: failing, maxRetries: 2 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.HttpError);
    expect(error).toMatchObject({ status: 503 });
    expect(hub.requests.filter((r) => r.method === "POST" && r.path.startsWith("/fal-ai/"))).toHaveLength(1);
    expect(polled).toBe(3); // the poll itself tried again twice (maxRetries 2), then its error
  });

  it("a poll's transient 503 is tried again on its own: the image answered, the task submitted once", async () => {
    let failures = 1;
    let polled = 0;
    const flaky = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      if (String(url).endsWith("/status?_subdomain=queue") && (polled++, failures-- > 0))
        return Promise.resolve(new Response("busy", { status: 503 }));
      return toHub(url, init);
    };
    const image = await ours.textToImage(args, { hubUrl: hub.url, allowPrivateNetwork: true, fetch: flaky });
    expect(image).toBeInstanceOf(Blob);
    expect(polled).toBe(2);
    expect(hub.requests.filter((r) => r.method === "POST" && r.path.startsWith("/fal-ai/"))).toHaveLength(1);
  });

  it("maxRetries: 0 tries nothing again, a poll included", async () => {
    let polled = 0;
    const failing = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
      String(url).endsWith("/status?_subdomain=queue")
        ? (polled++, Promise.resolve(new Response("busy", { status: 503 })))
        : toHub(url, init);
    const error = await ours
      .textToImage(args, { hubUrl: hub.url, allowPrivateNetwork: true, fetch: failing, maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ status: 503 });
    expect(polled).toBe(1);
  });

  it("a failed status poll is the provider's typed error", async () => {
    const failing = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
      String(url).endsWith("/status?_subdomain=queue")
        ? Promise.resolve(
            new Response(JSON.stringify({ error: "queue gone" }), {
              status: 500,
              headers: { "content-type": "application/json" },
            }),
          )
        : toHub(url, init);
    const error = await ours
      .textToImage(args, { hubUrl: hub.url, allowPrivateNetwork: true, fetch: failing, maxRetries: 0 })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.ServerError);
    expect(error).toMatchObject({ status: 500, body: { error: "queue gone" } });
  });
});

describe("automaticSpeechRecognition on fal-ai", () => {
  const audio = (type: string) => new Blob([new Uint8Array([82, 73, 70, 70, 0, 1, 2])], { type });
  const args = (type = "audio/wav") => ({
    accessToken: "hf_test",
    model: "hfkit/automatic-speech-recognition",
    provider: "fal-ai" as const,
    inputs: audio(type),
  });

  it.each(["audio/wav", "audio/mpeg", "audio/webm"])(
    "%s: the same answer and the same request as 4.13",
    async (type) => {
      const mine = await ours.automaticSpeechRecognition(args(type), options());
      const theirs = await hf.automaticSpeechRecognition(args(type), { fetch: toHub });
      expect(mine).toEqual(theirs);
      const label = { "audio/wav": "audio/x-wav", "audio/mpeg": "audio/mpeg", "audio/webm": "video/webm" }[type];
      expect(mine).toEqual({
        text: `7 bytes of ${label}`,
        chunks: [
          { timestamp: [0, 1.5], text: "7 bytes" },
          { timestamp: [1.5, 2], text: `of ${label}` },
        ],
      });
      const [mineSent, theirsSent] = sentTo("/fal-ai/");
      expect(mineSent?.path).toBe("/fal-ai/hfkit-fal/whisper");
      expect(mineSent?.headers["content-type"]).toBe("application/json");
      expect(mineSent?.body).toEqual({ audio_url: `data:${label};base64,${btoa("RIFF\u0000\u0001\u0002")}` });
      expect([mineSent?.path, mineSent?.body]).toEqual([theirsSent?.path, theirsSent?.body]);
    },
  );

  it("a type fal cannot decode is 4.13's InputError, before any request", async () => {
    const error = await ours.automaticSpeechRecognition(args("audio/ogg"), options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InferenceClientInputError);
    expect((error as Error).message).toMatch(/^Provider fal-ai does not support blob type audio\/ogg/);
    await expect(hf.automaticSpeechRecognition(args("audio/ogg"), { fetch: toHub })).rejects.toThrow(
      /^Provider fal-ai does not support blob type audio\/ogg/,
    );
    expect(sentTo("/fal-ai/")).toHaveLength(0);
    expect(lookups("hfkit/automatic-speech-recognition")).toHaveLength(0);
  });
});

describe("the Hub's mapping", () => {
  const image = (model: string, provider = "together") =>
    ours.textToImage({ accessToken: "hf_test", model, provider: provider as "together", inputs: "a cat" }, options());

  it("is looked up once for two calls, with the token", async () => {
    await image("org/cache-a");
    await image("org/cache-a");
    expect(lookups("org/cache-a")).toHaveLength(1);
    expect(lookups("org/cache-a")[0]?.path).toBe("/api/models/org/cache-a?expand[]=inferenceProviderMapping");
    expect(lookups("org/cache-a")[0]?.headers.authorization).toBe("Bearer hf_test");
    expect(sentTo("/together/")).toHaveLength(2);
  });

  it("concurrent first calls share one lookup", async () => {
    await Promise.all([image("org/cache-b"), image("org/cache-b"), image("org/cache-b")]);
    expect(lookups("org/cache-b")).toHaveLength(1);
    expect(sentTo("/together/")).toHaveLength(3);
  });

  it("a call that gives up does not end the lookup the others wait for", async () => {
    const gaveUp = ours.textToImage(
      { accessToken: "hf_test", model: "org/cache-d", provider: "together", inputs: "a cat" },
      { ...options(), signal: AbortSignal.abort() },
    );
    const waited = image("org/cache-d");
    await expect(gaveUp).rejects.toBeInstanceOf(ours.AbortError);
    expect(await waited).toBeInstanceOf(Blob);
    expect(lookups("org/cache-d").length).toBeLessThanOrEqual(1);
    expect(sentTo("/together/")).toHaveLength(1);
  });

  it("is bounded: the least recently used model is forgotten, and looked up again", async () => {
    await image("org/cache-c");
    for (let i = 0; i < 300; i++) mappingMemory.set(`filler|${i}`, []);
    expect(mappingMemory.size).toBe(300);
    expect(mappingMemory.get(`filler|0`)).toEqual([]);
    await image("org/cache-c");
    expect(lookups("org/cache-c")).toHaveLength(2);
    expect(mappingMemory.size).toBe(300);
    expect(mappingMemory.get("filler|1")).toBeUndefined();
  });

  it('"auto" picks the first live provider mapped for the task (a staging one skipped)', async () => {
    const out = await ours.textToImage(
      { accessToken: "hf_test", model: "hfkit/text-to-image-auto", provider: "auto", inputs: "a cat" },
      options(),
    );
    expect(out).toBeInstanceOf(Blob);
    expect(sentTo("/together/").map((r) => (r.body as { model: string }).model)).toEqual(["hfkit-together/flux-auto"]);
    expect(sentTo("/fal-ai/")).toHaveLength(0);
  });

  it('"auto" on a model mapped to hf-inference sends the hf-inference route', async () => {
    const out = await ours.featureExtraction(
      { accessToken: "hf_test", model: "hfkit/feature-extraction", provider: "auto", inputs: "hi" },
      options(),
    );
    expect(Array.isArray(out)).toBe(true);
    expect(sentTo("/hf-inference/models/hfkit/feature-extraction/pipeline/feature-extraction")).toHaveLength(1);
  });

  it("a provider the model is not mapped to: an InputError naming model, provider and task; nothing sent to a provider", async () => {
    const error = await image("hfkit/feature-extraction").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InferenceClientInputError);
    expect(String((error as Error).message)).toMatch(
      /^We have not been able to find inference provider information for model hfkit\/feature-extraction\. \(provider together, task text-to-image/,
    );
    await expect(
      hf.textToImage(
        { accessToken: "hf_test", model: "hfkit/feature-extraction", provider: "together", inputs: "a cat" },
        { fetch: toHub },
      ),
    ).rejects.toThrow(
      "We have not been able to find inference provider information for model hfkit/feature-extraction.",
    );
    expect(sentTo("/together/")).toHaveLength(0);
  });

  it('"auto" with no live provider mapped for the task: an InputError in 4.13\'s words, nothing sent to a provider', async () => {
    const error = await ours
      .textToImage(
        { accessToken: "hf_test", model: "hfkit/automatic-speech-recognition", provider: "auto", inputs: "a cat" },
        options(),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InferenceClientInputError);
    expect((error as Error).message).toMatch(
      /^No Inference Provider available for model hfkit\/automatic-speech-recognition\. \(provider "auto", task text-to-image: the Hub maps it to fal-ai \(automatic-speech-recognition, live\)/,
    );
    expect(hub.requests.map((r) => r.path)).toEqual([
      "/api/models/hfkit/automatic-speech-recognition?expand[]=inferenceProviderMapping",
    ]);
  });

  it("a staging mapping is served, and warned of in 4.13's words", async () => {
    const warnings: string[] = [];
    const out = await ours.textToImage(
      { accessToken: "hf_test", model: "hfkit/text-to-image-staging", provider: "together", inputs: "a cat" },
      { ...options(), logger: { warn: (m: string) => void warnings.push(m) } },
    );
    expect(out).toBeInstanceOf(Blob);
    expect(warnings).toEqual([
      "Model hfkit/text-to-image-staging is in staging mode for provider together. Meant for test purposes only.",
    ]);
  });

  it("a hubUrl that is not an http(s) URL is an InputError before any request", async () => {
    const error = await ours
      .textToImage(
        { accessToken: "hf_test", model: "hfkit/text-to-image", provider: "together", inputs: "a cat" },
        { ...options(), hubUrl: "ftp://hub" },
      )
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ field: "hubUrl" });
    expect(hub.requests).toHaveLength(0);
  });

  it("a provider mapped for another task: 4.13's message", async () => {
    const error = await image("org/mismatch").catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InferenceClientInputError);
    const words =
      "Model org/mismatch is not supported for task text-to-image and provider together. Supported task: text-to-speech.";
    expect((error as Error).message).toBe(words);
    await expect(
      hf.textToImage(
        { accessToken: "hf_test", model: "org/mismatch", provider: "together", inputs: "a cat" },
        { fetch: toHub },
      ),
    ).rejects.toThrow(words);
    expect(sentTo("/together/")).toHaveLength(0);
  });

  it("a pair not implemented is refused before any request, listing the implemented pairs", async () => {
    const error = await ours
      .fillMask(
        { accessToken: "hf_test", model: "hfkit/fill-mask", provider: "together", inputs: "a [MASK]" },
        options(),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InputError);
    expect((error as Error).message).toMatch(/not supported for provider 'together'.*together × text-to-image/);
    expect(hub.requests).toHaveLength(0);
  });

  it("a model unknown to the Hub: a Hub API error (404), as 4.13's class", async () => {
    // A lenient hub knows every id its chat answers: the Hub's 404 for an unknown model is strict mode's.
    const strict = await startMockHub({ strict: true, models: MODELS });
    const toStrict = (url: RequestInfo | URL, init?: RequestInit) =>
      realFetch(String(url).replace(/^https:\/\/(router\.)?huggingface\.co/, strict.url), init);
    try {
      const args = {
        accessToken: "hf_test",
        model: "org/nothing-here",
        provider: "together" as const,
        inputs: "a cat",
      };
      const error = await ours
        .textToImage(args, { ...options(), hubUrl: strict.url, fetch: toStrict })
        .catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ours.InferenceClientHubApiError);
      expect(error).toBeInstanceOf(ours.NotFoundError);
      expect(error).toMatchObject({ status: 404, body: { error: "Repository not found" } });
      expect((error as Error).message).toMatch(
        /^Failed to fetch inference provider mapping for model org\/nothing-here: Repository not found/,
      );
      await expect(hf.textToImage(args, { fetch: toStrict })).rejects.toBeInstanceOf(hf.InferenceClientHubApiError);
      expect(strict.requests.filter((r) => r.path.startsWith("/together/"))).toHaveLength(0);
    } finally {
      await strict.close();
    }
  });

  it("a refused token: a Hub API error (401)", async () => {
    const error = await ours
      .textToImage({ accessToken: "hf_bad", model: "org/cache-d", provider: "together", inputs: "a cat" }, options())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InferenceClientHubApiError);
    expect(error).toBeInstanceOf(ours.AuthenticationError);
    expect(mappingMemory.size).toBe(0);
  });
});

it.each(["together", "auto"] as const)(
  "chat on provider %s: one request through the router, no Hub lookup",
  async (provider) => {
    const out = await ours.chatCompletion(
      { accessToken: "hf_test", model: "org/chat", provider, messages: [{ role: "user", content: "Hi" }] },
      options(),
    );
    expect(out.choices[0]?.message.content).toBeTruthy();
    expect(hub.requests.map((r) => r.path)).toEqual(["/v1/chat/completions"]);
  },
);
