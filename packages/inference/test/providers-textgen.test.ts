/**
 * Text generation on every provider 4.13.30 serves it (featherless-ai, groq, novita, ovhcloud, scaleway, together,
 * deepinfra), embeddings on scaleway, together and deepinfra, deepinfra's speech, images and transcriptions, and
 * novita's videos: the same call through hfkit and 4.13.30 against the mock hub, answers and requests compared.
 */
import * as hf from "@huggingface/inference";
import { type MockHub, type RecordedRequest, startMockHub } from "@hfkit/mock-hub";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as ours from "../src/index";
import { mappingMemory } from "../src/targets/providers/mapping";

let hub: MockHub;
const MODELS = {
  "org/generate-auto": {
    inferenceProviderMapping: {
      "hf-inference": { providerId: "hfkit/tgi-3.2", task: "text-generation", status: "live" as const },
    },
  },
  "org/chat-only": {
    inferenceProviderMapping: { together: { providerId: "t/chat", task: "conversational", status: "live" as const } },
  },
};
beforeAll(async () => {
  hub = await startMockHub({ models: MODELS });
  hf.setLogger({ debug() {}, info() {}, log() {}, warn() {}, error() {} } as never);
});
afterAll(() => hub.close());
beforeEach(() => {
  mappingMemory.clear();
  hub.reset();
});

const realFetch = globalThis.fetch;
const toHub = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
  realFetch(String(url).replace(/^https:\/\/(router\.)?huggingface\.co/, hub.url), init);
// The mock hub serves the media it names on loopback, while each call's target is the router: let it through.
const options = (more: Record<string, unknown> = {}) => ({
  hubUrl: hub.url,
  allowPrivateNetwork: true,
  fetch: toHub,
  logger: { warn() {} },
  ...more,
});
const sentTo = (prefix: string) => hub.requests.filter((r) => r.path.startsWith(prefix));
const lookups = () => hub.requests.filter((r) => r.path.startsWith("/api/models/"));
const TOKEN = "hf_test";

/** What a request is compared on: method, path, body (a multipart form as its fields), the provider-relevant headers. */
async function seen(r: RecordedRequest): Promise<Record<string, unknown>> {
  const type = r.headers["content-type"] ?? "";
  let body: unknown = r.body;
  if (type.startsWith("multipart/form-data")) {
    const form = await new Response(String(r.body), { headers: { "content-type": type } }).formData();
    const fields: Record<string, unknown> = {};
    for (const [k, v] of form.entries())
      fields[k] = typeof v === "string" ? v : { name: v.name, type: v.type, text: await v.text() };
    body = fields;
  }
  return {
    method: r.method,
    path: r.path,
    body,
    type: type.replace(/;.*$/, ""),
    authorization: r.headers.authorization,
  };
}
const seenAll = (prefix: string) => Promise.all(sentTo(prefix).map(seen));

async function plain(value: unknown): Promise<unknown> {
  return value instanceof Blob ? { type: value.type, bytes: [...new Uint8Array(await value.arrayBuffer())] } : value;
}

/** Runs ours, then 4.13's, each alone against the hub: both answers, and the requests each sent under `prefix`. */
async function both(prefix: string, mine: () => Promise<unknown>, theirs: () => Promise<unknown>) {
  const a = await plain(await mine());
  const mineSent = await seenAll(prefix);
  hub.reset();
  const b = await plain(await theirs());
  return { mine: a, theirs: b, mineSent, theirsSent: await seenAll(prefix) };
}

const continued = (prompt: string) =>
  ` and so on (${prompt.split(/\s+/).filter(Boolean).length} words, ${prompt.length} characters).`;

describe("textGeneration on the completions providers", () => {
  const parameters = { max_new_tokens: 5, temperature: 0.5 };
  const args = (provider: string) => ({
    accessToken: TOKEN,
    model: "hfkit/text-generation",
    provider: provider as "together",
    inputs: "Once upon a time",
    parameters,
  });
  const MAPPED = { prompt: "Once upon a time", temperature: 0.5, max_tokens: 5 };
  const NESTED = { prompt: "Once upon a time", inputs: "Once upon a time", parameters };
  it.each([
    ["featherless-ai", "/featherless-ai/v1/completions", "hfkit-featherless/llama"],
    ["ovhcloud", "/ovhcloud/v1/completions", "hfkit-ovhcloud/llama"],
    ["deepinfra", "/deepinfra/v1/openai/completions", "hfkit-deepinfra/llama"],
    ["scaleway", "/scaleway/v1/completions", "hfkit-scaleway/llama"],
    ["together", "/together/v1/completions", "hfkit-together/llama"],
  ] as const)(
    "%s: the same answer as 4.13, the parameters at the top of the body as the API reads them",
    async (provider, path, providerId) => {
      const run = await both(
        `/${provider}/`,
        () => ours.textGeneration(args(provider), options()),
        () => hf.textGeneration(args(provider), { fetch: toHub }),
      );
      expect(run.mine).toEqual(run.theirs);
      expect(run.mineSent).toEqual([
        {
          method: "POST",
          path,
          body: { ...MAPPED, model: providerId },
          type: "application/json",
          authorization: "Bearer hf_test",
        },
      ]);
      // 4.13.30 nests them for Together and Scaleway, where their completions APIs do not read them (a recorded
      // real Together exchange, replayed in test/recorded, has them at the top); for the others it sends the same.
      const nested = provider === "together" || provider === "scaleway";
      expect(run.theirsSent[0]?.body).toEqual(nested ? { ...NESTED, model: providerId } : run.mineSent[0]?.body);
      const details = provider === "together" ? { details: { finish_reason: "length", seed: 42 } } : {};
      expect(run.mine).toEqual({ generated_text: continued("Once upon a time"), ...details });
    },
  );

  it.each([
    ["groq", "/groq/openai/v1/chat/completions", "hfkit-groq/llama"],
    ["novita", "/novita/v3/openai/chat/completions", "hfkit-novita/llama"],
  ] as const)(
    "%s (chat only): the prompt sent as one user message on 4.13's route, where 4.13's own body is refused",
    async (provider, path, providerId) => {
      const out = await ours.textGeneration(args(provider), options());
      expect(out).toEqual({ generated_text: continued("Once upon a time").trimStart() });
      const [mine] = await seenAll(`/${provider}/`);
      const messages = [{ role: "user", content: "Once upon a time" }];
      expect(mine).toEqual({
        method: "POST",
        path,
        body: { model: providerId, messages, max_tokens: 5, temperature: 0.5 },
        type: "application/json",
        authorization: "Bearer hf_test",
      });
      hub.reset();
      // 4.13 posts `{inputs, parameters, model}` to the chat route, which needs `messages`.
      const theirs = await hf.textGeneration(args(provider), { fetch: toHub }).catch((e: unknown) => e);
      expect(theirs).toBeInstanceOf(hf.InferenceClientProviderApiError);
      expect((theirs as hf.InferenceClientProviderApiError).httpResponse.status).toBe(400);
      expect((await seenAll(`/${provider}/`)).map((r) => [r.path, r.body])).toEqual([
        [path, { inputs: "Once upon a time", parameters, model: providerId }],
      ]);
    },
  );

  it("greedy in TGI's words is temperature 0 on a chat route; parameters without an OpenAI counterpart are not sent", async () => {
    await ours.textGeneration(
      { ...args("groq"), parameters: { do_sample: false, top_k: 3, stop: ["\n"], seed: 1, return_full_text: true } },
      options(),
    );
    expect(sentTo("/groq/")[0]?.body).toEqual({
      model: "hfkit-groq/llama",
      messages: [{ role: "user", content: "Once upon a time" }],
      temperature: 0,
      stop: ["\n"],
      seed: 1,
    });
  });

  it('"auto": the first live provider the Hub maps for text-generation, as 4.13 picks it', async () => {
    const auto = { ...args("auto"), provider: "auto" as const };
    const run = await both(
      "/together/",
      () => ours.textGeneration(auto, options()),
      () => hf.textGeneration(auto, { fetch: toHub }),
    );
    expect(run.mine).toEqual(run.theirs);
    expect(run.mineSent.map((r) => r.path)).toEqual(run.theirsSent.map((r) => r.path));
    expect(run.mineSent.map((r) => r.path)).toEqual(["/together/v1/completions"]);
  });

  it('"auto" on a model mapped to hf-inference: looked up, then today\'s generate body on the hf-inference route', async () => {
    const out = await ours.textGeneration(
      {
        accessToken: TOKEN,
        model: "org/generate-auto",
        provider: "auto",
        inputs: "Q:",
        parameters: { max_new_tokens: 2 },
      },
      options(),
    );
    expect(typeof out.generated_text).toBe("string");
    expect(hub.requests.map((r) => [r.method, r.path])).toEqual([
      ["GET", "/api/models/org/generate-auto?expand[]=inferenceProviderMapping"],
      ["POST", "/hf-inference/models/hfkit/tgi-3.2"],
    ]);
    expect(hub.requests[1]?.body).toEqual({ inputs: "Q:", parameters: { return_full_text: false, max_new_tokens: 2 } });
  });

  it.each([
    ["provider hf-inference", { provider: "hf-inference" as const }, {}],
    ["an endpoint", {}, { endpointUrl: "ENDPOINT" }],
    ["baseUrl", {}, { baseUrl: "BASE" }],
  ])("on %s: today's generate path, no Hub lookup", async (_name, extra, more) => {
    const url = (v: unknown) => (v === "ENDPOINT" ? `${hub.url}/models/hfkit/tgi-3.2` : v === "BASE" ? hub.url : v);
    const routed = Object.fromEntries(Object.entries(more).map(([k, v]) => [k, url(v)]));
    const out = await ours.textGeneration(
      { accessToken: TOKEN, model: "hfkit/tgi-3.2", inputs: "Q:", ...extra, ...routed },
      options({ provider: "together", ...routed }),
    );
    expect(typeof out.generated_text).toBe("string");
    expect(lookups()).toHaveLength(0);
    expect(hub.requests.map((r) => r.body)).toEqual([{ inputs: "Q:", parameters: { return_full_text: false } }]);
  });

  it("a model the provider maps for another task: 4.13's message, nothing sent to the provider", async () => {
    const call = { accessToken: TOKEN, model: "org/chat-only", provider: "together" as const, inputs: "Hi" };
    const words =
      "Model org/chat-only is not supported for task text-generation and provider together. Supported task: conversational.";
    await expect(ours.textGeneration(call, options())).rejects.toThrow(words);
    await expect(hf.textGeneration(call, { fetch: toHub })).rejects.toThrow(words);
    expect(sentTo("/together/")).toHaveLength(0);
  });

  it('an input it refuses is an InputError before the lookup, "auto" too', async () => {
    const error = await ours
      .textGeneration({ ...args("auto"), provider: "auto", parameters: { top_p: 2 } }, options())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ field: "parameters.top_p" });
    expect(hub.requests).toHaveLength(0);
  });

  it("textGenerationStream on a provider: an InputError naming `provider`, nothing sent", async () => {
    const error = await ours
      .textGenerationStream(args("together"), options())
      .next()
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InputError);
    expect(error).toMatchObject({ field: "provider" });
    expect((error as Error).message).toMatch(
      /does not stream text generation here.*textGeneration \(one answer from the provider\) or chatCompletionStream/,
    );
    expect(hub.requests).toHaveLength(0);
  });

  it("a user's `stream: true` is not sent (textGeneration answers once)", async () => {
    await ours.textGeneration({ ...args("featherless-ai"), stream: true }, options());
    expect(sentTo("/featherless-ai/")[0]?.body).not.toHaveProperty("stream");
  });
});

describe("featureExtraction on the embeddings providers", () => {
  const args = (provider: string, inputs: string | string[] = ["a cat", "a dog"]) => ({
    accessToken: TOKEN,
    model: "hfkit/embeddings",
    provider: provider as "together",
    inputs,
    normalize: true,
  });
  it.each([
    ["scaleway", "/scaleway/v1/embeddings", "hfkit-scaleway/bge", false],
    ["together", "/together/v1/embeddings", "hfkit-together/bge", true],
    ["deepinfra", "/deepinfra/v1/openai/embeddings", "hfkit-deepinfra/bge", true],
  ] as const)("%s: the same vectors and the same request as 4.13", async (provider, path, providerId, withArgs) => {
    for (const inputs of [["a cat", "a dog"], "one text"]) {
      hub.reset();
      const run = await both(
        `/${provider}/`,
        () => ours.featureExtraction(args(provider, inputs), options()),
        () => hf.featureExtraction(args(provider, inputs), { fetch: toHub }),
      );
      expect(run.mine).toEqual(run.theirs);
      expect(run.mineSent).toEqual(run.theirsSent);
      expect(run.mineSent[0]).toEqual({
        method: "POST",
        path,
        body: { input: inputs, model: providerId, ...(withArgs ? { normalize: true } : {}) },
        type: "application/json",
        authorization: "Bearer hf_test",
      });
      expect((run.mine as number[][]).length).toBe(Array.isArray(inputs) ? 2 : 1);
      expect((run.mine as number[][])[0]).toHaveLength(3);
    }
  });
});

const audio = (type: string) => new Blob([new Uint8Array([82, 73, 70, 70, 33, 34, 35])], { type });

describe("deepinfra's speech, images and transcriptions", () => {
  it.each([
    ["audio/wav", "audio.wav"],
    ["audio/webm;codecs=opus", "audio.webm"],
    ["", "audio.wav"],
  ])(
    "automaticSpeechRecognition of a Blob typed %j: a multipart upload as 4.13 sends it, the same answer",
    async (type, name) => {
      const call = {
        accessToken: TOKEN,
        model: "hfkit/whisper",
        provider: "deepinfra" as const,
        inputs: audio(type),
        parameters: { language: "fr", temperature: 0 },
      };
      const run = await both(
        "/deepinfra/",
        () => ours.automaticSpeechRecognition(call as never, options()),
        () => hf.automaticSpeechRecognition(call as never, { fetch: toHub }),
      );
      expect(run.mine).toEqual(run.theirs);
      expect(run.mineSent).toEqual(run.theirsSent);
      const file = { name, type: type || "application/octet-stream", text: 'RIFF!"#' };
      expect(run.mineSent).toEqual([
        {
          method: "POST",
          path: "/deepinfra/v1/openai/audio/transcriptions",
          body: { file, language: "fr", temperature: "0", model: "hfkit-deepinfra/whisper" },
          type: "multipart/form-data",
          authorization: "Bearer hf_test",
        },
      ]);
      expect(run.mine).toEqual({
        text: `7 bytes of ${name} (${file.type})`,
        chunks: [
          { text: "7 bytes", timestamp: [0, 1.5] },
          { text: `of ${name} (${file.type})`, timestamp: [1.5, 2] },
        ],
      });
    },
  );

  it("automaticSpeechRecognition of an ArrayBuffer, and of `data`: the same upload", async () => {
    const buffer = await audio("audio/wav").arrayBuffer();
    for (const call of [{ inputs: buffer }, { data: buffer }]) {
      hub.reset();
      const full = { accessToken: TOKEN, model: "hfkit/whisper", provider: "deepinfra" as const, ...call };
      const run = await both(
        "/deepinfra/",
        () => ours.automaticSpeechRecognition(full as never, options()),
        () => hf.automaticSpeechRecognition(full as never, { fetch: toHub }),
      );
      expect(run.mine).toEqual(run.theirs);
      expect(run.mineSent).toEqual(run.theirsSent);
    }
  });

  it.each([undefined, "blob", "dataUrl", "json", "url"] as const)(
    "textToImage, outputType %s: the same answer and the same request as 4.13",
    async (outputType) => {
      const call = {
        accessToken: TOKEN,
        model: "hfkit/text-to-image",
        provider: "deepinfra" as const,
        inputs: "a cat",
        parameters: { width: 512 },
      };
      const run = await both(
        "/deepinfra/",
        () => ours.textToImage(call, options({ outputType }) as never),
        () => hf.textToImage(call, { fetch: toHub, outputType } as never),
      );
      expect(run.mine).toEqual(run.theirs);
      expect(run.mineSent).toEqual(run.theirsSent);
      const format = outputType === "url" ? "url" : "b64_json";
      expect(run.mineSent[0]?.body).toEqual({
        width: 512,
        response_format: format,
        prompt: "a cat",
        model: "hfkit-deepinfra/flux",
      });
      if (outputType === undefined) expect(run.mine).toMatchObject({ type: "image/jpeg" });
      if (outputType === "url") expect(run.mine).toBe(`${hub.url}/files/hfkit-deepinfra%2Fflux.png`);
    },
  );

  it("textToSpeech: the audio, and the same request as 4.13", async () => {
    const call = {
      accessToken: TOKEN,
      model: "hfkit/text-to-speech",
      provider: "deepinfra" as const,
      inputs: "Hello",
      parameters: { voice: "af_bella" },
    };
    const run = await both(
      "/deepinfra/",
      () => ours.textToSpeech(call, options()),
      () => hf.textToSpeech(call, { fetch: toHub }),
    );
    expect(run.mine).toEqual(run.theirs);
    expect(run.mineSent).toEqual(run.theirsSent);
    expect(run.mineSent[0]?.body).toEqual({ voice: "af_bella", input: "Hello", model: "hfkit-deepinfra/kokoro" });
    expect(run.mine).toEqual({ type: "audio/mpeg", bytes: [0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0] });
  });
});

describe("novita's videos (its async task APIs)", () => {
  // 4.13 polls and fetches the video with the global fetch, not its `fetch` option.
  beforeEach(() => void vi.stubGlobal("fetch", toHub));
  afterEach(() => void vi.unstubAllGlobals());
  const image = new Blob([new Uint8Array([137, 80, 78, 71])], { type: "image/png" });

  it("textToVideo: the same video and the same requests as 4.13 (submitted, polled, fetched without the token)", async () => {
    const call = {
      accessToken: TOKEN,
      model: "hfkit/text-to-video",
      provider: "novita" as const,
      inputs: "a cat",
      parameters: { num_inference_steps: 4, seed: 1 },
    };
    const run = await both(
      "/",
      () => ours.textToVideo(call, options()),
      () => hf.textToVideo(call, { fetch: toHub }),
    );
    expect(run.mine).toEqual(run.theirs);
    const noLookup = (list: Record<string, unknown>[]) =>
      list.filter((r) => !String(r.path).startsWith("/api/")).map((r) => [r.method, r.path, r.body, r.authorization]);
    expect(noLookup(run.mineSent)).toEqual(noLookup(run.theirsSent));
    expect(noLookup(run.mineSent)).toEqual([
      ["POST", "/novita/v3/async/hfkit-novita/wan-t2v", { seed: 1, steps: 4, prompt: "a cat" }, "Bearer hf_test"],
      ["GET", "/novita/v3/async/task-result?task_id=mock-novita-t2v-5", undefined, "Bearer hf_test"],
      ["GET", "/files/mock-novita-t2v-5.mp4", undefined, undefined],
    ]);
    expect(run.mine).toMatchObject({ type: "video/mp4" });
  });

  it.each([
    [
      "with an image",
      true,
      { target_size: { width: 1920, height: 1080 }, num_frames: 200, seed: 3, negative_prompt: "x", fps: 24 },
    ],
    ["without an image", false, { target_size: { width: 1920, height: 1080 }, num_frames: 48 }],
  ])(
    "imageTextToVideo %s (MiniMax H3): the same video and the same requests as 4.13",
    async (_name, withImage, more) => {
      const call = {
        accessToken: TOKEN,
        model: "hfkit/image-text-to-video",
        provider: "novita" as const,
        ...(withImage ? { inputs: image } : {}),
        parameters: { prompt: "the cat runs", ...more },
      };
      const run = await both(
        "/",
        () => ours.imageTextToVideo(call, options()),
        () => hf.imageTextToVideo(call as never, { fetch: toHub }),
      );
      expect(run.mine).toEqual(run.theirs);
      const noLookup = (list: Record<string, unknown>[]) =>
        list.filter((r) => !String(r.path).startsWith("/api/")).map((r) => [r.method, r.path, r.body, r.authorization]);
      expect(noLookup(run.mineSent)).toEqual(noLookup(run.theirsSent));
      const content = [
        { type: "text", text: "the cat runs" },
        ...(withImage
          ? [{ type: "image_url", image_url: { url: "data:image/png;base64,iVBORw==" }, role: "first_frame" }]
          : []),
      ];
      const settings = withImage
        ? { resolution: "768P", duration: 8, ratio: "adaptive", fps: 24 }
        : { resolution: "768P", duration: 4, ratio: "16:9" };
      const id = `mock-novita-${withImage ? "h3-i2v" : "h3-t2v"}-12`;
      expect(noLookup(run.mineSent)).toEqual([
        [
          "POST",
          "/novita/v3/minimax/v2/video_generation",
          { model: "MiniMax-H3", content, ...settings },
          "Bearer hf_test",
        ],
        ["GET", `/novita/v3/minimax/v2/query/video_generation/${id}`, undefined, "Bearer hf_test"],
        ["GET", `/files/${id}.mp4`, undefined, undefined],
      ]);
    },
  );

  it("a task still queued is polled again (every 500 ms for textToVideo) until it succeeds", async () => {
    let polls = 0;
    const queued = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
      String(url).includes("task-result") && ++polls < 3
        ? Promise.resolve(Response.json({ task: { status: "TASK_STATUS_QUEUED" } }))
        : toHub(url, init);
    const out = await ours.textToVideo(
      { accessToken: TOKEN, model: "hfkit/text-to-video", provider: "novita", inputs: "a cat" },
      options({ fetch: queued }),
    );
    expect(out).toBeInstanceOf(Blob);
    expect(polls).toBe(3);
  });

  it("polls are bounded by the call's deadline: a task that never ends is a TimeoutError", async () => {
    const forever = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
      String(url).includes("/query/")
        ? Promise.resolve(Response.json({ task: { status: "running" } }))
        : toHub(url, init);
    const call = {
      accessToken: TOKEN,
      model: "hfkit/image-text-to-video",
      provider: "novita" as const,
      parameters: { prompt: "the cat runs" },
    };
    const error = await ours.imageTextToVideo(call, options({ fetch: forever, timeout: 300 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.TimeoutError);
  });

  it.each([
    [
      "textToVideo",
      () =>
        ours.textToVideo(
          { accessToken: TOKEN, model: "hfkit/text-to-video", provider: "novita", inputs: "please fail" },
          options(),
        ),
      () =>
        hf.textToVideo(
          { accessToken: TOKEN, model: "hfkit/text-to-video", provider: "novita", inputs: "please fail" },
          { fetch: toHub },
        ),
      "Novita text-to-video task failed",
    ],
    [
      "imageTextToVideo",
      () =>
        ours.imageTextToVideo(
          {
            accessToken: TOKEN,
            model: "hfkit/image-text-to-video",
            provider: "novita",
            parameters: { prompt: "please fail" },
          },
          options(),
        ),
      () =>
        hf.imageTextToVideo(
          {
            accessToken: TOKEN,
            model: "hfkit/image-text-to-video",
            provider: "novita",
            parameters: { prompt: "please fail" },
          } as never,
          { fetch: toHub },
        ),
      "mock failure",
    ],
  ])("%s: a failed task is a provider output error, in 4.13's words", async (_name, mine, theirs, words) => {
    const error = await mine().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
    expect((error as Error).message).toBe(words);
    await expect(theirs()).rejects.toThrow(words);
  });

  it("imageTextToVideo on a model other than MiniMax-H3: 4.13's InputError, after the lookup, nothing sent to novita", async () => {
    const call = {
      accessToken: TOKEN,
      model: "hfkit/image-text-to-video-other",
      provider: "novita" as const,
      parameters: { prompt: "go" },
    };
    const words = "Unsupported Novita image-text-to-video model: hfkit-novita/other-i2v";
    const error = await ours.imageTextToVideo(call, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InputError);
    expect((error as Error).message).toBe(words);
    await expect(hf.imageTextToVideo(call as never, { fetch: toHub })).rejects.toThrow(words);
    expect(sentTo("/novita/")).toHaveLength(0);
  });

  it("a video URL that is not http(s) is never fetched: a provider output error", async () => {
    const file = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
      String(url).includes("task-result")
        ? Promise.resolve(
            Response.json({ task: { status: "TASK_STATUS_SUCCEED" }, videos: [{ video_url: "file:///etc/passwd" }] }),
          )
        : toHub(url, init);
    const error = await ours
      .textToVideo(
        { accessToken: TOKEN, model: "hfkit/text-to-video", provider: "novita", inputs: "a cat" },
        options({ fetch: file }),
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
    expect(sentTo("/files/")).toHaveLength(0);
  });
});

/** Every pair: how to call it, the route its provider answers, the model the hub's faults are matched on, and an input it refuses. */
const PAIRS = [
  [
    "featherless-ai × text-generation",
    "/featherless-ai/",
    "hfkit-featherless/llama",
    (o: object, inputs: unknown = "Hi") =>
      ours.textGeneration(
        { accessToken: TOKEN, model: "hfkit/text-generation", provider: "featherless-ai", inputs } as never,
        o,
      ),
  ],
  [
    "groq × text-generation",
    "/groq/",
    "hfkit-groq/llama",
    (o: object, inputs: unknown = "Hi") =>
      ours.textGeneration({ accessToken: TOKEN, model: "hfkit/text-generation", provider: "groq", inputs } as never, o),
  ],
  [
    "novita × text-generation",
    "/novita/",
    "hfkit-novita/llama",
    (o: object, inputs: unknown = "Hi") =>
      ours.textGeneration(
        { accessToken: TOKEN, model: "hfkit/text-generation", provider: "novita", inputs } as never,
        o,
      ),
  ],
  [
    "ovhcloud × text-generation",
    "/ovhcloud/",
    "hfkit-ovhcloud/llama",
    (o: object, inputs: unknown = "Hi") =>
      ours.textGeneration(
        { accessToken: TOKEN, model: "hfkit/text-generation", provider: "ovhcloud", inputs } as never,
        o,
      ),
  ],
  [
    "scaleway × text-generation",
    "/scaleway/",
    "hfkit-scaleway/llama",
    (o: object, inputs: unknown = "Hi") =>
      ours.textGeneration(
        { accessToken: TOKEN, model: "hfkit/text-generation", provider: "scaleway", inputs } as never,
        o,
      ),
  ],
  [
    "together × text-generation",
    "/together/",
    "hfkit-together/llama",
    (o: object, inputs: unknown = "Hi") =>
      ours.textGeneration(
        { accessToken: TOKEN, model: "hfkit/text-generation", provider: "together", inputs } as never,
        o,
      ),
  ],
  [
    "deepinfra × text-generation",
    "/deepinfra/",
    "hfkit-deepinfra/llama",
    (o: object, inputs: unknown = "Hi") =>
      ours.textGeneration(
        { accessToken: TOKEN, model: "hfkit/text-generation", provider: "deepinfra", inputs } as never,
        o,
      ),
  ],
  [
    "scaleway × feature-extraction",
    "/scaleway/",
    "hfkit-scaleway/bge",
    (o: object, inputs: unknown = "Hi") =>
      ours.featureExtraction(
        { accessToken: TOKEN, model: "hfkit/embeddings", provider: "scaleway", inputs } as never,
        o,
      ),
  ],
  [
    "together × feature-extraction",
    "/together/",
    "hfkit-together/bge",
    (o: object, inputs: unknown = "Hi") =>
      ours.featureExtraction(
        { accessToken: TOKEN, model: "hfkit/embeddings", provider: "together", inputs } as never,
        o,
      ),
  ],
  [
    "deepinfra × feature-extraction",
    "/deepinfra/",
    "hfkit-deepinfra/bge",
    (o: object, inputs: unknown = "Hi") =>
      ours.featureExtraction(
        { accessToken: TOKEN, model: "hfkit/embeddings", provider: "deepinfra", inputs } as never,
        o,
      ),
  ],
  [
    "deepinfra × automatic-speech-recognition",
    "/deepinfra/",
    "hfkit-deepinfra/whisper",
    (o: object, inputs: unknown = audio("audio/wav")) =>
      ours.automaticSpeechRecognition(
        { accessToken: TOKEN, model: "hfkit/whisper", provider: "deepinfra", inputs } as never,
        o,
      ),
  ],
  [
    "deepinfra × text-to-image",
    "/deepinfra/",
    "hfkit-deepinfra/flux",
    (o: object, inputs: unknown = "a cat") =>
      ours.textToImage({ accessToken: TOKEN, model: "hfkit/text-to-image", provider: "deepinfra", inputs } as never, o),
  ],
  [
    "deepinfra × text-to-speech",
    "/deepinfra/",
    "hfkit-deepinfra/kokoro",
    (o: object, inputs: unknown = "Hi") =>
      ours.textToSpeech(
        { accessToken: TOKEN, model: "hfkit/text-to-speech", provider: "deepinfra", inputs } as never,
        o,
      ),
  ],
  [
    "novita × text-to-video",
    "/novita/",
    "hfkit-novita/wan-t2v",
    (o: object, inputs: unknown = "a cat") =>
      ours.textToVideo({ accessToken: TOKEN, model: "hfkit/text-to-video", provider: "novita", inputs } as never, o),
  ],
  [
    "novita × image-text-to-video",
    "/novita/",
    "MiniMax-H3",
    (o: object, prompt: unknown = "go") =>
      ours.imageTextToVideo(
        { accessToken: TOKEN, model: "hfkit/image-text-to-video", provider: "novita", parameters: { prompt } } as never,
        o,
      ),
  ],
] as const;

describe.each(PAIRS)("%s: errors", (_name, prefix, providerId, call) => {
  it("a provider 4xx is a typed error keeping its status and body (the token never in it)", async () => {
    hub.inject({ type: "unauthorized" }, { model: providerId, times: 1 });
    const error = await call(options({ maxRetries: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.AuthenticationError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({ status: 401, body: { error: "Invalid username or password." } });
    expect(JSON.stringify(error) + String((error as Error).message)).not.toContain(TOKEN);
  });

  it("a provider 5xx is a ServerError keeping its status and body", async () => {
    hub.inject({ type: "serverError", status: 502, body: "upstream down" }, { model: providerId, times: 1 });
    const error = await call(options({ maxRetries: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.ServerError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({ status: 502, body: "upstream down" });
  });

  it("a malformed answer is a provider output error", async () => {
    const odd = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
      String(url).includes(prefix) && init?.method === "POST"
        ? Promise.resolve(Response.json({ unexpected: true }))
        : toHub(url, init);
    const error = await call(options({ fetch: odd })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
  });

  it("an input it refuses is an InputError before any request", async () => {
    const error = await call(options(), 42).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InputError);
    expect(hub.requests).toHaveLength(0);
  });
});
