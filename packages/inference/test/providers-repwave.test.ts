/**
 * Replicate (text-to-speech, text-to-video, image-to-image, automatic-speech-recognition) and WaveSpeedAI
 * (text-to-image, text-to-video, image-to-image, image-to-video, image-text-to-image, image-text-to-video) over
 * loopback HTTP against the mock hub: the same call through hfkit and `@huggingface/inference` 4.13.30, the
 * answers and the requests the hub saw compared; the provider's errors typed; malformed answers refused.
 */
import * as hf from "@huggingface/inference";
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as ours from "../src/index";
import type { ProviderIo } from "../src/targets/providers/helper";
import { mappingMemory } from "../src/targets/providers/mapping";
import { replicateImageToImage, replicateTextToImage } from "../src/targets/providers/replicate";
import { wavespeedImageToImage, wavespeedTextToImage } from "../src/targets/providers/wavespeed";

let hub: MockHub;
const MODELS = {
  // A text-to-speech mapping to a model that reads an image: Replicate's own 422.
  "org/speech-on-edit": {
    inferenceProviderMapping: {
      replicate: { providerId: "hfkit-replicate/edit", task: "text-to-speech", status: "live" as const },
    },
  },
};
beforeAll(async () => {
  hub = await startMockHub({ models: MODELS });
});
afterAll(() => hub.close());
beforeEach(() => {
  mappingMemory.clear();
  hub.reset();
  // 4.13 fetches the files an answer names, and polls WaveSpeedAI, with the global fetch.
  vi.stubGlobal("fetch", toHub);
});
afterEach(() => void vi.unstubAllGlobals());

const realFetch = globalThis.fetch;
const toHub = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
  realFetch(String(url).replace(/^https:\/\/(router\.)?huggingface\.co/, hub.url), init);
// The mock hub serves the media it names on loopback, while each call's target is the router: let it through.
const options = (extra: Record<string, unknown> = {}) => ({
  hubUrl: hub.url,
  allowPrivateNetwork: true,
  fetch: toHub,
  logger: { warn() {} },
  ...extra,
});
/** What the hub saw besides the mapping lookups: method, path, body and the provider-relevant headers. */
const sent = () =>
  hub.requests
    .filter((r) => !r.path.startsWith("/api/models/"))
    .map((r) => ({
      method: r.method,
      path: r.path,
      body: r.body,
      authorization: r.headers.authorization,
      prefer: r.headers.prefer,
      type: r.method === "POST" ? r.headers["content-type"] : undefined,
    }));
const json = (status: number, body: unknown) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

async function plain(value: unknown): Promise<unknown> {
  return value instanceof Blob ? { type: value.type, bytes: [...new Uint8Array(await value.arrayBuffer())] } : value;
}

/** Runs hfkit's call, then 4.13's: both answers (Blobs as type and bytes) and the requests each sent. */
async function both(mine: () => Promise<unknown>, theirs: () => Promise<unknown>) {
  const a = await plain(await mine());
  const aSent = sent();
  hub.reset();
  const b = await plain(await theirs());
  return { mine: a, theirs: b, mineSent: aSent, theirsSent: sent() };
}

const failure = (p: Promise<unknown>) =>
  p.then(
    () => undefined,
    (e: unknown) => e,
  );
const png = () =>
  new Blob([Uint8Array.from(atob("iVBORw0KGgoAAAANSUhEUg"), (c) => c.charCodeAt(0))], { type: "image/png" });
const pngBase64 = btoa(atob("iVBORw0KGgoAAAANSUhEUg"));
const audio = (type = "audio/wav") => new Blob([new Uint8Array([82, 73, 70, 70, 0, 1, 2])], { type });
const T = "hf_test";

describe("replicate × text-to-speech", () => {
  const args = {
    accessToken: T,
    model: "hfkit/text-to-speech-replicate",
    provider: "replicate" as const,
    inputs: "hello",
    parameters: { voice: "af", prompt: "dropped" },
  };

  it("the same audio and the same requests as 4.13: {input: {..., text}}, Prefer: wait, the file fetched without the token", async () => {
    const r = await both(
      () => ours.textToSpeech(args, options()),
      () => hf.textToSpeech(args, { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toMatchObject({ type: "audio/wav" });
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent).toEqual([
      {
        method: "POST",
        path: "/replicate/v1/models/hfkit-replicate/speech/predictions",
        body: { input: { voice: "af", text: "hello" } },
        authorization: `Bearer ${T}`,
        prefer: "wait",
        type: "application/json",
      },
      {
        method: "GET",
        path: "/files/mock-hfkit-replicate-speech.wav",
        body: undefined,
        authorization: undefined,
        prefer: undefined,
        type: undefined,
      },
    ]);
  });

  it("a binary answer is the audio itself, as 4.13", async () => {
    const fake = async (url: RequestInfo | URL, init?: RequestInit) =>
      String(url).includes("/replicate/")
        ? new Response(new Uint8Array([1, 2, 3]), { headers: { "content-type": "audio/flac" } })
        : toHub(url, init);
    const mine = await ours.textToSpeech(args, options({ fetch: fake }));
    expect(await plain(mine)).toEqual({ type: "audio/flac", bytes: [1, 2, 3] });
    expect(await plain(await hf.textToSpeech(args, { fetch: fake }))).toEqual(await plain(mine));
  });

  it("Replicate's 422 (a model that reads another input) is a ValidationError keeping status and body", async () => {
    const error = await failure(ours.textToSpeech({ ...args, model: "org/speech-on-edit" }, options()));
    expect(error).toBeInstanceOf(ours.ValidationError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({
      status: 422,
      body: { status: 422, title: "Input validation failed", detail: "- input: image is required\n" },
    });
    expect(String((error as Error).message)).not.toContain(T);
    await expect(hf.textToSpeech({ ...args, model: "org/speech-on-edit" }, { fetch: toHub })).rejects.toBeInstanceOf(
      hf.InferenceClientProviderApiError,
    );
  });

  it("a provider 5xx is a ServerError keeping status and body", async () => {
    hub.inject(
      { type: "serverError", status: 502, body: "bad gateway" },
      { model: "hfkit-replicate/speech", times: 1 },
    );
    const error = await failure(ours.textToSpeech(args, options({ maxRetries: 0 })));
    expect(error).toBeInstanceOf(ours.ServerError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({ status: 502, body: "bad gateway" });
  });

  it("an answer without an http(s) output is a provider output error; nothing fetched", async () => {
    for (const output of [null, "file:///etc/passwd", [42]]) {
      hub.reset();
      const fake = async (url: RequestInfo | URL, init?: RequestInit) =>
        String(url).includes("/replicate/") ? json(200, { status: "starting", output }) : toHub(url, init);
      expect(await failure(ours.textToSpeech(args, options({ fetch: fake })))).toBeInstanceOf(
        ours.InferenceClientProviderOutputError,
      );
      expect(hub.requests.filter((r) => r.path.startsWith("/files/"))).toHaveLength(0);
    }
  });

  it("a file the output names that is missing is a NotFoundError (4.13 answers the error page as the audio)", async () => {
    const fake = async (url: RequestInfo | URL, init?: RequestInit) =>
      String(url).includes("/replicate/")
        ? json(200, { status: "succeeded", output: `${hub.url}/files/gone.ogg` })
        : toHub(url, init);
    expect(await failure(ours.textToSpeech(args, options({ fetch: fake })))).toMatchObject({ status: 404 });
    expect(await failure(ours.textToSpeech(args, options({ fetch: fake })))).toBeInstanceOf(ours.NotFoundError);
    expect(await plain(await hf.textToSpeech(args, { fetch: fake }))).toMatchObject({ type: "application/json" });
  });

  it("an empty text is an InputError naming inputs, nothing sent", async () => {
    const error = await failure(ours.textToSpeech({ ...args, inputs: "" }, options()));
    expect(error).toBeInstanceOf(ours.InputError);
    expect(error).toMatchObject({ field: "inputs" });
    expect(hub.requests).toHaveLength(0);
  });
});

describe("replicate × text-to-video", () => {
  const args = {
    accessToken: T,
    model: "hfkit/text-to-video-replicate",
    provider: "replicate" as const,
    inputs: "a cat running",
    parameters: { num_frames: 24 },
  };

  it.each([
    [
      "a model id",
      "hfkit/text-to-video-replicate",
      "/replicate/v1/models/hfkit-replicate/video/predictions",
      { input: { num_frames: 24, prompt: "a cat running" } },
    ],
    [
      "a versioned id",
      "hfkit/text-to-video-replicate-versioned",
      "/replicate/v1/predictions",
      { input: { num_frames: 24, prompt: "a cat running" }, version: "9f747673" },
    ],
  ])("%s: the same video and the same requests as 4.13", async (_name, model, path, body) => {
    const r = await both(
      () => ours.textToVideo({ ...args, model }, options()),
      () => hf.textToVideo({ ...args, model }, { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toMatchObject({ type: "video/mp4" });
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent[0]).toMatchObject({ method: "POST", path, body, authorization: `Bearer ${T}`, prefer: "wait" });
    expect(r.mineSent[1]).toMatchObject({ method: "GET", authorization: undefined });
  });

  it("a list of outputs: the first video (4.13 refuses a list for video)", async () => {
    const fake = async (url: RequestInfo | URL, init?: RequestInit) =>
      String(url).includes("/replicate/")
        ? json(200, { status: "succeeded", output: [`${hub.url}/files/v.mp4`] })
        : toHub(url, init);
    expect(await plain(await ours.textToVideo(args, options({ fetch: fake })))).toMatchObject({ type: "video/mp4" });
    await expect(hf.textToVideo(args, { fetch: fake })).rejects.toBeInstanceOf(hf.InferenceClientProviderOutputError);
  });

  it("a 401 from the provider is an AuthenticationError; a malformed answer an output error", async () => {
    hub.inject({ type: "unauthorized" }, { model: "hfkit-replicate/video", times: 1 });
    const error = await failure(ours.textToVideo(args, options()));
    expect(error).toBeInstanceOf(ours.AuthenticationError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({ status: 401 });
    const fake = async (url: RequestInfo | URL, init?: RequestInit) =>
      String(url).includes("/replicate/") ? json(200, { output: { video: 1 } }) : toHub(url, init);
    expect(await failure(ours.textToVideo(args, options({ fetch: fake })))).toBeInstanceOf(
      ours.InferenceClientProviderOutputError,
    );
  });

  it("a prompt that is not a string is an InputError, nothing sent", async () => {
    expect(await failure(ours.textToVideo({ ...args, inputs: 3 as never }, options()))).toMatchObject({
      field: "inputs",
    });
    expect(hub.requests).toHaveLength(0);
  });
});

describe("replicate × image-to-image", () => {
  const args = () => ({
    accessToken: T,
    model: "hfkit/image-to-image-replicate",
    provider: "replicate" as const,
    inputs: png(),
    parameters: { prompt: "make it blue", strength: 0.5 },
  });
  const dataUrl = (type: string) => `data:${type};base64,${pngBase64}`;

  it("the same image and the same requests as 4.13: the image as a data: URL under each key", async () => {
    const r = await both(
      () => ours.imageToImage(args(), options()),
      () => hf.imageToImage(args(), { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toMatchObject({ type: "image/png" });
    expect(r.mineSent).toEqual(r.theirsSent);
    const image = dataUrl("image/png");
    expect(r.mineSent[0]).toMatchObject({
      path: "/replicate/v1/models/hfkit-replicate/edit/predictions",
      body: {
        input: {
          prompt: "make it blue",
          strength: 0.5,
          image,
          images: [image],
          input_image: image,
          input_images: [image],
        },
      },
      prefer: "wait",
      authorization: `Bearer ${T}`,
    });
    expect(r.mineSent[1]).toMatchObject({
      method: "GET",
      path: "/files/mock-hfkit-replicate-edit.png",
      authorization: undefined,
    });
  });

  it("an ArrayBuffer is sent labelled image/jpeg (4.13 needs a Blob)", async () => {
    const bytes = await png().arrayBuffer();
    await ours.imageToImage({ ...args(), inputs: bytes }, options());
    expect((sent()[0]?.body as { input: { image: string } }).input.image).toBe(dataUrl("image/jpeg"));
    hub.reset();
    expect(await failure(hf.imageToImage({ ...args(), inputs: bytes as never }, { fetch: toHub }))).toBeInstanceOf(
      TypeError,
    );
  });

  it("a missing image is an InputError naming inputs, nothing sent; a 5xx a ServerError", async () => {
    expect(await failure(ours.imageToImage({ ...args(), inputs: undefined as never }, options()))).toMatchObject({
      field: "inputs",
    });
    expect(hub.requests).toHaveLength(0);
    hub.inject({ type: "serverError", status: 500 }, { model: "hfkit-replicate/edit", times: 1 });
    const error = await failure(ours.imageToImage(args(), options({ maxRetries: 0 })));
    expect(error).toBeInstanceOf(ours.ServerError);
    expect(error).toMatchObject({ status: 500 });
  });

  it("a LoRA mapping adds lora_weights (text-to-image too), as 4.13", async () => {
    const entry = {
      provider: "replicate",
      providerId: "o/flux",
      task: "image-to-image",
      status: "live",
      adapter: "lora",
      adapterWeightsPath: "w.safetensors",
      hfModelId: "org/lora",
    };
    const make = replicateImageToImage.body({ ...args(), model: "org/lora" }, {}) as (
      id: string,
      entry?: object,
    ) => Promise<{ input: Record<string, unknown> }>;
    expect((await make("o/flux", entry)).input.lora_weights).toBe("https://huggingface.co/org/lora");
    expect((await make("o/flux")).input.lora_weights).toBeUndefined();
    const text = replicateTextToImage.body({ model: "org/lora", inputs: "a cat" }, {}) as (
      id: string,
      entry?: object,
    ) => Promise<{ input: Record<string, unknown> }>;
    expect((await text("o/flux", entry)).input).toEqual({
      prompt: "a cat",
      lora_weights: "https://huggingface.co/org/lora",
    });
    expect((await text("o/flux", { ...entry, adapterWeightsPath: undefined })).input).toEqual({ prompt: "a cat" });
  });
});

describe("replicate × automatic-speech-recognition", () => {
  const args = (model: string, blob = audio()) => ({
    accessToken: T,
    model,
    provider: "replicate" as const,
    inputs: blob,
    parameters: { language: "en" },
  });

  it.each([
    ["its transcription", "hfkit/automatic-speech-recognition-replicate", 1],
    ["its txt_file, fetched", "hfkit/automatic-speech-recognition-replicate-file", 2],
    ["a string output", "hfkit/automatic-speech-recognition-replicate-text", 1],
  ])("%s: the same text and the same requests as 4.13", async (_name, model, requests) => {
    const r = await both(
      () => ours.automaticSpeechRecognition(args(model), options()),
      () => hf.automaticSpeechRecognition(args(model), { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toEqual({ text: "7 bytes of audio/wav" });
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent).toHaveLength(requests);
    expect(r.mineSent[0]).toMatchObject({
      method: "POST",
      body: { input: { language: "en", audio: `data:audio/wav;base64,${btoa("RIFF\u0000\u0001\u0002")}` } },
      prefer: "wait",
      type: "application/json",
    });
    if (requests === 2) expect(r.mineSent[1]).toMatchObject({ method: "GET", authorization: undefined });
  });

  it("the older `data`, and audio without a type (sent as audio/wav), as 4.13", async () => {
    const legacy = {
      accessToken: T,
      model: "hfkit/automatic-speech-recognition-replicate",
      provider: "replicate" as const,
      data: audio(""),
    };
    const r = await both(
      () => ours.automaticSpeechRecognition(legacy, options()),
      () => hf.automaticSpeechRecognition(legacy, { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent[0]?.body).toEqual({
      input: { audio: `data:audio/wav;base64,${btoa("RIFF\u0000\u0001\u0002")}` },
    });
  });

  it("an answer with no text is a provider output error; a txt_file that is not http(s) is never fetched", async () => {
    for (const output of [{ segments: [] }, { txt_file: "file:///etc/passwd" }, 7]) {
      const fake = async (url: RequestInfo | URL, init?: RequestInit) =>
        String(url).includes("/replicate/") ? json(200, { status: "succeeded", output }) : toHub(url, init);
      expect(
        await failure(
          ours.automaticSpeechRecognition(
            args("hfkit/automatic-speech-recognition-replicate"),
            options({ fetch: fake }),
          ),
        ),
      ).toBeInstanceOf(ours.InferenceClientProviderOutputError);
    }
  });

  it("audio that is not binary is an InputError, nothing sent", async () => {
    expect(
      await failure(
        ours.automaticSpeechRecognition(args("hfkit/automatic-speech-recognition-replicate", "x" as never), options()),
      ),
    ).toMatchObject({ field: "inputs" });
    expect(hub.requests).toHaveLength(0);
  });
});

describe("wavespeed × text-to-image (submitted, then polled)", () => {
  const args = {
    accessToken: T,
    model: "hfkit/text-to-image-wavespeed",
    provider: "wavespeed" as const,
    inputs: "a cat",
    parameters: { seed: 1, images: ["dropped"] },
  };
  const POLL = "/wavespeed/api/v3/predictions/mock-ws-hfkit-wavespeed--flux/result";

  it.each([undefined, "blob", "dataUrl", "json", "url"] as const)(
    "outputType %s: the same answer and the same requests as 4.13",
    async (outputType) => {
      const r = await both(
        () => ours.textToImage(args, options({ outputType }) as never),
        () => hf.textToImage(args, { fetch: toHub, outputType } as never),
      );
      // 4.13 labels every data: URL image/jpeg; the bytes are the same.
      const label = (v: unknown) => (typeof v === "string" ? v.replace(/^data:image\/jpeg;/, "data:image/png;") : v);
      expect(r.mine).toEqual(label(r.theirs));
      expect(r.mineSent).toEqual(r.theirsSent);
      const fetched =
        outputType === "url" || outputType === "json"
          ? []
          : [{ method: "GET", path: "/files/mock-ws-hfkit-wavespeed--flux.png", authorization: undefined }];
      expect(r.mineSent.map(({ method, path, authorization }) => ({ method, path, authorization }))).toEqual([
        { method: "POST", path: "/wavespeed/api/v3/hfkit-wavespeed/flux", authorization: `Bearer ${T}` },
        { method: "GET", path: POLL, authorization: `Bearer ${T}` },
        ...fetched,
      ]);
      expect(r.mineSent[0]?.body).toEqual({ seed: 1, prompt: "a cat" });
      if (outputType === undefined) expect(r.mine).toMatchObject({ type: "image/png" });
      if (outputType === "url") expect(r.mine).toBe(`${hub.url}/files/mock-ws-hfkit-wavespeed--flux.png`);
      if (outputType === "json") expect(r.mine).toMatchObject({ code: 200, data: { status: "completed" } });
    },
  );

  it("a task still processing is polled again after 500 ms, as 4.13", async () => {
    const queued = { ...args, model: "hfkit/text-to-image-wavespeed-queued" };
    const r = await both(
      () => ours.textToImage(queued, options()),
      () => hf.textToImage(queued, { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    const paths = r.mineSent.map((s) => `${s.method} ${s.path}`);
    expect(paths).toEqual(r.theirsSent.map((s) => `${s.method} ${s.path}`));
    const poll = "GET /wavespeed/api/v3/predictions/mock-ws-hfkit-wavespeed--flux-queued/result";
    expect(paths).toEqual([
      "POST /wavespeed/api/v3/hfkit-wavespeed/flux-queued",
      poll,
      poll,
      "GET /files/mock-ws-hfkit-wavespeed--flux-queued.png",
    ]);
    const polls = hub.requests.filter((q) => q.path.endsWith("/result"));
    expect(polls[1]!.time - polls[0]!.time).toBeGreaterThanOrEqual(450);
  });

  it("a failed task is a provider output error with its error, as 4.13", async () => {
    const failing = { ...args, model: "hfkit/text-to-image-wavespeed-fails" };
    const error = await failure(ours.textToImage(failing, options()));
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
    expect((error as Error).message).toBe("mock: the generation failed");
    await expect(hf.textToImage(failing, { fetch: toHub })).rejects.toThrow(
      new hf.InferenceClientProviderOutputError("mock: the generation failed"),
    );
  });

  it("a model WaveSpeedAI does not know: its 404, a NotFoundError keeping status and body", async () => {
    const error = await failure(
      ours.textToImage({ ...args, model: "hfkit/text-to-image-wavespeed-missing" }, options()),
    );
    expect(error).toBeInstanceOf(ours.NotFoundError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({
      status: 404,
      body: { code: 404, message: "model not found: hfkit-wavespeed/nothing", data: null },
    });
  });

  it("a 5xx on submit or on a poll is a ServerError keeping status and body", async () => {
    hub.inject({ type: "serverError", status: 503, body: "busy" }, { model: "hfkit-wavespeed/flux", times: 1 });
    expect(await failure(ours.textToImage(args, options({ maxRetries: 0 })))).toMatchObject({
      status: 503,
      body: "busy",
    });
    const fake = async (url: RequestInfo | URL, init?: RequestInit) =>
      String(url).endsWith("/result") ? json(500, { code: 500, message: "poll failed" }) : toHub(url, init);
    const error = await failure(ours.textToImage(args, options({ fetch: fake, maxRetries: 0 })));
    expect(error).toBeInstanceOf(ours.ServerError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({ status: 500, body: { code: 500, message: "poll failed" } });
    vi.stubGlobal("fetch", fake);
    await expect(hf.textToImage(args, { fetch: fake })).rejects.toBeInstanceOf(hf.InferenceClientProviderApiError);
  });

  it.each([
    [
      "a submission without urls.get",
      (u: string) => (u.endsWith("/flux") ? json(200, { code: 200, data: { id: "x" } }) : undefined),
    ],
    ["a poll without data", (u: string) => (u.endsWith("/result") ? json(200, { code: 200 }) : undefined)],
    [
      "a completed task without outputs",
      (u: string) => (u.endsWith("/result") ? json(200, { data: { status: "completed", outputs: [] } }) : undefined),
    ],
    [
      "an output that is not http(s)",
      (u: string) =>
        u.endsWith("/result")
          ? json(200, { data: { status: "completed", outputs: ["file:///etc/passwd"] } })
          : undefined,
    ],
  ])("%s: a provider output error, no file fetched", async (_name, answer) => {
    const fake = async (url: RequestInfo | URL, init?: RequestInit) => answer(String(url)) ?? toHub(url, init);
    const error = await failure(ours.textToImage(args, options({ fetch: fake })));
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
    expect(String((error as Error).message)).not.toContain(T);
    expect(hub.requests.filter((r) => r.path.startsWith("/files/"))).toHaveLength(0);
  });

  it("polls are bounded: 1200 looks, 500 ms apart, then an error", async () => {
    let polls = 0;
    const slept: number[] = [];
    const io: ProviderIo = {
      file: () => Promise.reject(new Error("no file")),
      json: async () => (polls++, { data: { status: "processing" } }),
      sleep: async (ms) => void slept.push(ms),
      route: (path) => `https://router.huggingface.co/wavespeed${path}`,
    };
    const error = await failure(
      Promise.resolve(
        wavespeedTextToImage.answer(
          { data: { urls: { get: "https://api.wavespeed.ai/api/v3/predictions/x/result" } } },
          {},
          undefined,
          io,
        ),
      ),
    );
    expect(error).toBeInstanceOf(ours.InferenceError);
    expect((error as Error).message).toMatch(/did not complete in 600 s \(last status processing\)/);
    expect([polls, slept.length, new Set(slept)]).toEqual([1200, 1199, new Set([500])]);
  });

  it("and under the call's deadline: a task that never completes ends with the call's timeout", async () => {
    let polls = 0;
    const fake = async (url: RequestInfo | URL, init?: RequestInit) =>
      String(url).endsWith("/result") ? (polls++, json(200, { data: { status: "processing" } })) : toHub(url, init);
    const error = await failure(ours.textToImage(args, options({ fetch: fake, timeout: 1200, maxRetries: 0 })));
    expect(error).toBeInstanceOf(ours.TimeoutError);
    expect(polls).toBeGreaterThanOrEqual(2);
    expect(polls).toBeLessThanOrEqual(4);
  });

  it("an empty prompt is an InputError naming inputs, nothing sent", async () => {
    expect(await failure(ours.textToImage({ ...args, inputs: "" }, options()))).toMatchObject({ field: "inputs" });
    expect(hub.requests).toHaveLength(0);
  });
});

describe("wavespeed × text-to-video", () => {
  const args = {
    accessToken: T,
    model: "hfkit/text-to-video-wavespeed",
    provider: "wavespeed" as const,
    inputs: "a cat running",
    parameters: { duration: 5 },
  };

  it("the same video and the same requests as 4.13", async () => {
    const r = await both(
      () => ours.textToVideo(args, options()),
      () => hf.textToVideo(args, { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toMatchObject({ type: "video/mp4" });
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent[0]).toMatchObject({
      method: "POST",
      path: "/wavespeed/api/v3/hfkit-wavespeed/wan-t2v",
      body: { duration: 5, prompt: "a cat running" },
      authorization: `Bearer ${T}`,
    });
    expect(r.mineSent.map((s) => s.path)).toEqual([
      "/wavespeed/api/v3/hfkit-wavespeed/wan-t2v",
      "/wavespeed/api/v3/predictions/mock-ws-hfkit-wavespeed--wan-t2v/result",
      "/files/mock-ws-hfkit-wavespeed--wan-t2v.mp4",
    ]);
  });
});

describe("wavespeed × image-to-image, image-to-video, image-text-to-image, image-text-to-video", () => {
  const base = { accessToken: T, provider: "wavespeed" as const };
  type Call = (a: never, o: never) => Promise<unknown>;
  const pairs: [string, Call, Call, string, string][] = [
    ["image-to-image", ours.imageToImage as Call, hf.imageToImage as Call, "hfkit/image-to-image-wavespeed", "kontext"],
    ["image-to-video", ours.imageToVideo as Call, hf.imageToVideo as Call, "hfkit/image-to-video-wavespeed", "wan-i2v"],
    [
      "image-text-to-image",
      ours.imageTextToImage as Call,
      hf.imageTextToImage as Call,
      "hfkit/image-text-to-image-wavespeed",
      "kontext",
    ],
    [
      "image-text-to-video",
      ours.imageTextToVideo as Call,
      hf.imageTextToVideo as Call,
      "hfkit/image-text-to-video-wavespeed",
      "wan-i2v",
    ],
  ];

  it.each(pairs)(
    "%s: the same answer and the same requests as 4.13, the image base64 in image and images",
    async (_task, mine, theirs, model, id) => {
      const args = () => ({ ...base, model, inputs: png(), parameters: { prompt: "make it blue", strength: 0.5 } });
      const r = await both(
        () => mine(args() as never, options() as never),
        () => theirs(args() as never, { fetch: toHub } as never),
      );
      expect(r.mine).toEqual(r.theirs);
      expect(r.mine).toMatchObject({ type: id === "kontext" ? "image/png" : "video/mp4" });
      expect(r.mineSent).toEqual(r.theirsSent);
      expect(r.mineSent[0]).toMatchObject({
        method: "POST",
        path: `/wavespeed/api/v3/hfkit-wavespeed/${id}`,
        body: { image: pngBase64, images: [pngBase64], prompt: "make it blue", strength: 0.5 },
        authorization: `Bearer ${T}`,
      });
      expect(r.mineSent.slice(1).map((s) => [s.method, s.authorization])).toEqual([
        ["GET", `Bearer ${T}`],
        ["GET", undefined],
      ]);
    },
  );

  it.each(pairs)(
    "%s: the images listed in parameters are sent instead, as 4.13",
    async (_task, mine, theirs, model) => {
      const args = () => ({
        ...base,
        model,
        inputs: png(),
        parameters: { prompt: "p", images: ["https://example.com/a.png", pngBase64] },
      });
      const r = await both(
        () => mine(args() as never, options() as never),
        () => theirs(args() as never, { fetch: toHub } as never),
      );
      expect(r.mineSent[0]?.body).toEqual(r.theirsSent[0]?.body);
      expect(r.mineSent[0]?.body).toEqual({
        image: pngBase64,
        images: ["https://example.com/a.png", pngBase64],
        prompt: "p",
      });
    },
  );

  it.each(pairs.slice(2))(
    "%s without an image: a transparent pixel is sent, as 4.13",
    async (_task, mine, theirs, model) => {
      const args = { ...base, model, parameters: { prompt: "a cat" } };
      const r = await both(
        () => mine(args as never, options() as never),
        () => theirs(args as never, { fetch: toHub } as never),
      );
      expect(r.mine).toEqual(r.theirs);
      expect(r.mineSent[0]?.body).toEqual(r.theirsSent[0]?.body);
      expect((r.mineSent[0]?.body as { image: string }).image).toMatch(/^iVBORw0KGgo/);
    },
  );

  it.each(pairs.slice(0, 2))(
    "%s without an image: an InputError naming inputs, nothing sent",
    async (_task, mine, _theirs, model) => {
      expect(
        await failure(mine({ ...base, model, parameters: { prompt: "p" } } as never, options() as never)),
      ).toMatchObject({ field: "inputs" });
      expect(
        await failure(mine({ ...base, model, inputs: png(), parameters: { prompt: 3 } } as never, options() as never)),
      ).toMatchObject({ field: "parameters.prompt" });
      expect(hub.requests).toHaveLength(0);
    },
  );

  it("WaveSpeedAI's 400 (a model that needs a prompt) is a ValidationError keeping status and body", async () => {
    const error = await failure(
      ours.imageToImage({ ...base, model: "hfkit/image-to-image-wavespeed", inputs: png() }, options()),
    );
    expect(error).toBeInstanceOf(ours.ValidationError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({ status: 400, body: { code: 400, message: "prompt is required", data: null } });
  });

  it("a LoRA mapping adds loras, as 4.13", async () => {
    const make = wavespeedImageToImage.body({ model: "org/lora", inputs: png(), parameters: { prompt: "p" } }, {}) as (
      id: string,
      entry?: object,
    ) => Promise<Record<string, unknown>>;
    expect((await make("o/kontext", { adapter: "lora", hfModelId: "org/lora" })).loras).toEqual([
      { path: "org/lora", scale: 1 },
    ]);
    expect((await make("o/kontext")).loras).toBeUndefined();
  });
});

describe("replicate: a prediction still running after Prefer: wait", () => {
  const args = (model: string) => ({ accessToken: T, model, provider: "replicate" as const, inputs: "a cat" });

  it("is polled at its urls.get (every second, through the router) until it succeeds; its video fetched", async () => {
    const video = await ours.textToVideo(args("hfkit/text-to-video-replicate-slow"), options());
    expect(video).toBeInstanceOf(Blob);
    expect((video as Blob).type).toBe("video/mp4");
    const seen = hub.requests
      .filter((r) => r.path.startsWith("/replicate/") || r.path.startsWith("/files/"))
      .map((r) => `${r.method} ${r.path.replace(/-\d+(\b|\.)/, "-N$1")}`);
    expect(seen).toEqual([
      "POST /replicate/v1/models/hfkit-replicate/slow-video/predictions",
      "GET /replicate/v1/predictions/mock-hfkit-replicate-slow-video-N",
      "GET /replicate/v1/predictions/mock-hfkit-replicate-slow-video-N",
      "GET /files/mock-hfkit-replicate-slow-video-N.mp4",
    ]);
    expect(
      hub.requests.find((r) => r.method === "GET" && r.path.startsWith("/replicate/v1/predictions/"))?.headers
        .authorization,
    ).toBe(`Bearer ${T}`);
    // 4.13 reads the first answer only: a running prediction has no output there.
    await expect(hf.textToVideo(args("hfkit/text-to-video-replicate-slow"), { fetch: toHub })).rejects.toBeInstanceOf(
      hf.InferenceClientProviderOutputError,
    );
  });

  it("one that fails is a provider output error with Replicate's reason; nothing more is fetched", async () => {
    const error = await failure(ours.textToVideo(args("hfkit/text-to-video-replicate-failing"), options()));
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
    expect((error as Error).message).toMatch(
      /^Replicate prediction mock-hfkit-replicate-failing-video-\d+ failed: CUDA out of memory$/,
    );
    expect(hub.requests.filter((r) => r.path.startsWith("/files/"))).toHaveLength(0);
    expect(hub.requests.filter((r) => r.method === "POST" && r.path.startsWith("/replicate/"))).toHaveLength(1);
  });
});
