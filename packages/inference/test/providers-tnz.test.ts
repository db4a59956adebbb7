/**
 * Together (image-to-image, text-to-video, image-to-video, text-to-speech, automatic-speech-recognition),
 * Nscale (text-to-image) and Z.ai (text-to-image, image-to-text) against the mock hub, each call made
 * through hfkit and through `@huggingface/inference` 4.13.30: the same answers, the same requests.
 */
import * as hf from "@huggingface/inference";
import { type MockHub, type RecordedRequest, startMockHub } from "@hfkit/mock-hub";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as ours from "../src/index";
import { mappingMemory } from "../src/targets/providers/mapping";

type Task =
  | "image-to-image"
  | "text-to-video"
  | "image-to-video"
  | "text-to-speech"
  | "automatic-speech-recognition"
  | "text-to-image"
  | "image-to-text";
/** A model per pair whose provider id the proxy answers 404 for. */
const missing = (provider: string, task: Task) => ({
  inferenceProviderMapping: { [provider]: { providerId: `x/does-not-exist-${task}`, task, status: "live" as const } },
});

let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub({
    models: {
      "org/nf-i2i": missing("together", "image-to-image"),
      "org/nf-t2v": missing("together", "text-to-video"),
      "org/nf-i2v": missing("together", "image-to-video"),
      "org/nf-tts": missing("together", "text-to-speech"),
      "org/nf-asr": missing("together", "automatic-speech-recognition"),
      "org/nf-nscale": missing("nscale", "text-to-image"),
      "org/nf-zai-t2i": missing("zai-org", "text-to-image"),
      "org/nf-zai-i2t": missing("zai-org", "image-to-text"),
    },
  });
});
afterAll(() => hub.close());

const realFetch = globalThis.fetch;
const realSetTimeout = globalThis.setTimeout;
/** The router's and the Hub's URLs sent to the mock hub. */
const toHub = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
  realFetch(String(url).replace(/^https:\/\/(router\.)?huggingface\.co/, hub.url), init);
/** The poll waits (Together's 2 s, Z.ai's 5 s) asked for, in order: they pass at once. */
let waits: number[] = [];
beforeEach(() => {
  mappingMemory.clear();
  hub.reset();
  waits = [];
  // 4.13 polls and downloads with the global fetch, not its `fetch` option.
  vi.stubGlobal("fetch", toHub);
  vi.stubGlobal("setTimeout", ((fn: () => void, ms?: number, ...rest: unknown[]) => {
    if (ms === 2000 || ms === 5000) waits.push(ms);
    return realSetTimeout(fn, ms === 2000 || ms === 5000 ? 0 : ms, ...rest);
  }) as typeof setTimeout);
});
afterEach(() => void vi.unstubAllGlobals());

// The mock hub serves the media it names on loopback, while each call's target is the router: let it through.
const options = (extra: Record<string, unknown> = {}) => ({
  hubUrl: hub.url,
  allowPrivateNetwork: true,
  fetch: toHub,
  logger: { warn() {} },
  ...extra,
});
const TOKEN = "hf_test";
const PNG = Uint8Array.from(
  atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
  (c) => c.charCodeAt(0),
);
const png = () => new Blob([PNG], { type: "image/png" });
const b64 = (bytes: Uint8Array) => btoa(String.fromCharCode(...bytes));

async function plain(value: unknown): Promise<unknown> {
  return value instanceof Blob ? { type: value.type, bytes: [...new Uint8Array(await value.arrayBuffer())] } : value;
}

/** What a request sent, as compared: method, path, body, and the headers that matter to the provider. */
const shown = (r: RecordedRequest) => ({
  method: r.method,
  path: r.path,
  body: r.body,
  authorization: r.headers.authorization,
  contentType: r.headers["content-type"],
  channel: r.headers["x-source-channel"],
  // Node's fetch sends `accept-language: *` unless told otherwise.
  language: r.headers["accept-language"] === "*" ? undefined : r.headers["accept-language"],
});
const sent = (...prefixes: string[]) =>
  hub.requests.filter((r) => prefixes.some((p) => r.path.startsWith(p))).map(shown);
const lookups = () => hub.requests.filter((r) => r.path.startsWith("/api/models/"));

/** Runs hfkit's call, then 4.13's, against a clean hub: both answers and the requests each sent under `prefixes`. */
async function both(prefixes: string[], mine: () => Promise<unknown>, theirs: () => Promise<unknown>) {
  const a = await plain(await mine());
  const mineSent = sent(...prefixes);
  const mineWaits = waits;
  hub.reset();
  waits = [];
  const b = await plain(await theirs());
  return { mine: a, theirs: b, mineSent, theirsSent: sent(...prefixes), mineWaits, theirsWaits: waits };
}

/** A fetch whose answer to the provider's POST is `body` (JSON), anything else sent to the hub. */
const answering =
  (prefix: string, body: unknown, status = 200) =>
  (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    init?.method === "POST" && String(url).includes(prefix)
      ? Promise.resolve(new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } }))
      : toHub(url, init);

/** Each pair once, for the checks they share: a model mapped for it, a call of hfkit and its route's prefix. */
const PAIRS = [
  {
    name: "together × image-to-image",
    model: "hfkit/image-to-image",
    nf: "org/nf-i2i",
    prefix: "/together/",
    call: (model: string, o: object) =>
      ours.imageToImage(
        { accessToken: TOKEN, model, provider: "together", inputs: png(), parameters: { prompt: "blue" } },
        o,
      ),
  },
  {
    name: "together × text-to-video",
    model: "hfkit/text-to-video",
    nf: "org/nf-t2v",
    prefix: "/together/",
    call: (model: string, o: object) =>
      ours.textToVideo({ accessToken: TOKEN, model, provider: "together", inputs: "a cat" }, o),
  },
  {
    name: "together × image-to-video",
    model: "hfkit/image-to-video",
    nf: "org/nf-i2v",
    prefix: "/together/",
    call: (model: string, o: object) =>
      ours.imageToVideo({ accessToken: TOKEN, model, provider: "together", inputs: png() }, o),
  },
  {
    name: "together × text-to-speech",
    model: "hfkit/text-to-speech",
    nf: "org/nf-tts",
    prefix: "/together/",
    call: (model: string, o: object) =>
      ours.textToSpeech({ accessToken: TOKEN, model, provider: "together", inputs: "Hello" }, o),
  },
  {
    name: "together × automatic-speech-recognition",
    model: "hfkit/automatic-speech-recognition",
    nf: "org/nf-asr",
    prefix: "/together/",
    call: (model: string, o: object) =>
      ours.automaticSpeechRecognition(
        { accessToken: TOKEN, model, provider: "together", inputs: new Blob(["RIFF"], { type: "audio/wav" }) },
        o,
      ),
  },
  {
    name: "nscale × text-to-image",
    model: "hfkit/text-to-image-nscale",
    nf: "org/nf-nscale",
    prefix: "/nscale/",
    call: (model: string, o: object) =>
      ours.textToImage({ accessToken: TOKEN, model, provider: "nscale", inputs: "a cat" }, o),
  },
  {
    name: "zai-org × text-to-image",
    model: "hfkit/text-to-image-zai",
    nf: "org/nf-zai-t2i",
    prefix: "/zai-org/",
    call: (model: string, o: object) =>
      ours.textToImage({ accessToken: TOKEN, model, provider: "zai-org", inputs: "a cat" }, o),
  },
  {
    name: "zai-org × image-to-text",
    model: "hfkit/image-to-text-zai",
    nf: "org/nf-zai-i2t",
    prefix: "/zai-org/",
    call: (model: string, o: object) =>
      ours.imageToText({ accessToken: TOKEN, model, provider: "zai-org", inputs: png() }, o),
  },
];

describe.each(PAIRS)("$name", ({ model, nf, prefix, call }) => {
  it("a provider 5xx is a ServerError (a provider API error) keeping its status and body", async () => {
    hub.inject({ type: "serverError", status: 502, body: "upstream down" });
    const error = await call(model, options({ maxRetries: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.ServerError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({ status: 502, body: "upstream down" });
    expect(String((error as Error).message)).not.toContain(TOKEN);
    expect(sent(prefix)).toHaveLength(1);
  });

  it("a provider 404 is a NotFoundError (a provider API error) keeping its status and body", async () => {
    const error = await call(nf, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.NotFoundError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({
      status: 404,
      body: { error: expect.stringMatching(/^Model x\/does-not-exist-.* does not exist$/) as unknown },
    });
  });

  it("an answer of another shape is a provider output error, without the token", async () => {
    const error = await call(model, options({ fetch: answering(prefix, { unexpected: TOKEN }) })).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
    expect(String((error as Error).message)).not.toContain(TOKEN);
  });
});

describe("together × image-to-image", () => {
  const args = (model: string, parameters?: Record<string, unknown>) => ({
    accessToken: TOKEN,
    model,
    provider: "together" as const,
    inputs: png(),
    parameters,
  });

  it("reference_images (a data URL), the prompt and steps from parameters: the same answer and request as 4.13", async () => {
    const a = args("hfkit/image-to-image", { prompt: "make it blue", num_inference_steps: 4, seed: 7 });
    const r = await both(
      ["/together/"],
      () => ours.imageToImage(a, options()),
      () => hf.imageToImage(a, { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    // The mock answers the input image's own bytes, as base64: 4.13 and hfkit label the decoded image image/jpeg.
    expect(r.mine).toEqual({ type: "image/jpeg", bytes: [...PNG] });
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent).toEqual([
      {
        method: "POST",
        path: "/together/v1/images/generations",
        body: {
          prompt: "make it blue",
          reference_images: [`data:image/png;base64,${b64(PNG)}`],
          seed: 7,
          steps: 4,
          response_format: "base64",
          model: "hfkit-together/flux-2-dev",
        },
        authorization: "Bearer hf_test",
        contentType: "application/json",
        channel: undefined,
        language: undefined,
      },
    ]);
  });

  it("a FLUX.1 Kontext model takes image_url; no prompt is sent as an empty one, as 4.13", async () => {
    const a = args("hfkit/image-to-image-kontext");
    const r = await both(
      ["/together/"],
      () => ours.imageToImage(a, options()),
      () => hf.imageToImage(a, { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent[0]?.body).toEqual({
      prompt: "",
      image_url: `data:image/png;base64,${b64(PNG)}`,
      response_format: "base64",
      model: "hfkit-together/FLUX.1-Kontext-dev",
    });
  });

  it("Together's 400 (a bad reference_images) is a ValidationError with its body", async () => {
    const a = args("hfkit/image-to-image", { reference_images: "not a list" });
    const error = await ours.imageToImage(a, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.ValidationError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({
      status: 400,
      body: { error: { message: "reference_images must be a non-empty list of image URLs" } },
    });
    await expect(hf.imageToImage(a, { fetch: toHub })).rejects.toBeInstanceOf(hf.InferenceClientProviderApiError);
  });

  it("an answer naming a URL instead of base64 is a provider output error, as 4.13", async () => {
    const fetch = answering("/together/", { data: [{ url: "https://example.com/x.png" }] });
    await expect(ours.imageToImage(args("hfkit/image-to-image"), options({ fetch }))).rejects.toBeInstanceOf(
      ours.InferenceClientProviderOutputError,
    );
    await expect(hf.imageToImage(args("hfkit/image-to-image"), { fetch })).rejects.toBeInstanceOf(
      hf.InferenceClientProviderOutputError,
    );
  });

  it("an input that is not an image is an InputError naming it, nothing sent", async () => {
    const error = await ours
      .imageToImage({ ...args("hfkit/image-to-image"), inputs: "a cat" as never }, options())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InputError);
    expect(error).toMatchObject({ field: "inputs" });
    expect(hub.requests).toHaveLength(0);
  });
});

describe("together × text-to-video (a video job, polled)", () => {
  const args = (model = "hfkit/text-to-video", parameters?: Record<string, unknown>) => ({
    accessToken: TOKEN,
    model,
    provider: "together" as const,
    inputs: "a cat",
    parameters,
  });

  it("the job posted, polled every 2 s, its video fetched without the token: the same answer and requests as 4.13", async () => {
    const a = args("hfkit/text-to-video", {
      num_inference_steps: 20,
      target_size: { width: 640, height: 360 },
      seed: 1,
    });
    const r = await both(
      ["/together/", "/files/"],
      () => ours.textToVideo(a, options()),
      () => hf.textToVideo(a, { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toMatchObject({ type: "video/mp4" });
    const id = "mock-video-hfkit-together-wan-t2v";
    const get = (path: string, authorization?: string) => ({
      method: "GET",
      path,
      body: undefined,
      authorization,
      contentType: authorization && "application/json",
      channel: undefined,
      language: undefined,
    });
    expect(r.mineSent).toEqual([
      {
        method: "POST",
        path: "/together/v2/videos",
        body: { seed: 1, steps: 20, width: 640, height: 360, prompt: "a cat", model: "hfkit-together/wan-t2v" },
        authorization: "Bearer hf_test",
        contentType: "application/json",
        channel: undefined,
        language: undefined,
      },
      get(`/together/v2/videos/${id}`, "Bearer hf_test"),
      get(`/files/${id}.mp4`),
    ]);
    expect(r.mineSent.map((s) => [s.method, s.path, s.body, s.authorization])).toEqual(
      r.theirsSent.map((s) => [s.method, s.path, s.body, s.authorization]),
    );
    expect(r.mineWaits).toEqual([2000]);
    expect(r.theirsWaits).toEqual([2000]);
  });

  it("a failed job is a provider output error with Together's message, as 4.13", async () => {
    const words = "Together video generation failed: the mock failed this job";
    const error = await ours.textToVideo(args("hfkit/text-to-video-failing"), options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
    expect((error as Error).message).toBe(words);
    await expect(hf.textToVideo(args("hfkit/text-to-video-failing"), { fetch: toHub })).rejects.toThrow(words);
    expect(sent("/files/")).toHaveLength(0);
  });

  it("a failed status poll is the typed error of its status", async () => {
    const failing = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
      /\/v2\/videos\/.+/.test(String(url))
        ? Promise.resolve(
            new Response(JSON.stringify({ error: { message: "gone" } }), {
              status: 500,
              headers: { "content-type": "application/json" },
            }),
          )
        : toHub(url, init);
    const error = await ours.textToVideo(args(), options({ fetch: failing, maxRetries: 0 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.ServerError);
    expect(error).toMatchObject({ status: 500, body: { error: { message: "gone" } } });
  });

  it("a completed job without an http(s) video URL is a provider output error, nothing fetched", async () => {
    for (const outputs of [{}, { video_url: "file:///etc/passwd" }]) {
      const fetch = answering("/together/", { id: "job-1", status: "completed", outputs });
      await expect(ours.textToVideo(args(), options({ fetch }))).rejects.toBeInstanceOf(
        ours.InferenceClientProviderOutputError,
      );
    }
    expect(sent("/files/")).toHaveLength(0);
  });

  it("a job that never ends is given up on after 150 polls, as 4.13", async () => {
    const pending = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
      String(url).includes("/together/")
        ? Promise.resolve(
            new Response(JSON.stringify({ id: "job-1", status: "in_progress" }), {
              headers: { "content-type": "application/json" },
            }),
          )
        : toHub(url, init);
    const error = await ours.textToVideo(args(), options({ fetch: pending })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
    expect((error as Error).message).toMatch(/after 150 status polls/);
    expect(waits).toHaveLength(150);
  });

  it("the call's timeout ends the wait between polls: a TimeoutError, long before the next poll", async () => {
    vi.stubGlobal("setTimeout", realSetTimeout);
    const started = Date.now();
    const error = await ours.textToVideo(args(), options({ timeout: 700 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.TimeoutError);
    expect(Date.now() - started).toBeLessThan(1500);
    expect(sent("/together/").map((s) => s.method)).toEqual(["POST"]);
  });

  it("no prompt is an InputError naming inputs, nothing sent", async () => {
    const error = await ours.textToVideo({ ...args(), inputs: "" }, options()).catch((e: unknown) => e);
    expect(error).toMatchObject({ field: "inputs" });
    expect(error).toBeInstanceOf(ours.InputError);
    expect(hub.requests).toHaveLength(0);
  });
});

describe("together × image-to-video", () => {
  const args = (parameters?: Record<string, unknown>) => ({
    accessToken: TOKEN,
    model: "hfkit/image-to-video",
    provider: "together" as const,
    inputs: png(),
    parameters,
  });

  it("the image as the first frame (a data URL), the prompt from parameters: the same answer and requests as 4.13", async () => {
    const a = args({ prompt: "it runs", num_inference_steps: 10 });
    const r = await both(
      ["/together/", "/files/"],
      () => ours.imageToVideo(a, options()),
      () => hf.imageToVideo(a, { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toMatchObject({ type: "video/mp4" });
    expect(r.mineSent.map((s) => [s.method, s.path, s.body, s.authorization])).toEqual(
      r.theirsSent.map((s) => [s.method, s.path, s.body, s.authorization]),
    );
    expect(r.mineSent[0]?.body).toEqual({
      steps: 10,
      frame_images: [{ input_image: `data:image/png;base64,${b64(PNG)}`, frame: "first" }],
      model: "hfkit-together/wan-i2v",
      prompt: "it runs",
    });
    expect(r.mineSent.map((s) => s.path)).toEqual([
      "/together/v2/videos",
      "/together/v2/videos/mock-video-hfkit-together-wan-i2v",
      "/files/mock-video-hfkit-together-wan-i2v.mp4",
    ]);
  });

  it("no image is an InputError naming inputs, nothing sent", async () => {
    const error = await ours.imageToVideo({ ...args(), inputs: undefined }, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InputError);
    expect(error).toMatchObject({ field: "inputs" });
    await expect(hf.imageToVideo({ ...args(), inputs: undefined as never }, { fetch: toHub })).rejects.toThrow(
      "Together image-to-video expects a Blob input.",
    );
    expect(sent("/together/")).toHaveLength(0);
  });
});

describe("together × text-to-speech", () => {
  const args = (model: string, parameters?: Record<string, unknown>) => ({
    accessToken: TOKEN,
    model,
    provider: "together" as const,
    inputs: "Hello there",
    parameters,
  });

  it.each([
    [
      "a Kokoro model: the voice af_alloy by default",
      "hfkit/text-to-speech",
      undefined,
      { voice: "af_alloy", input: "Hello there", model: "hfkit-together/Kokoro-82M" },
      "audio/wav",
    ],
    [
      "parameters spread in, the voice given",
      "hfkit/text-to-speech-orpheus",
      { voice: "tara", response_format: "mp3" },
      { voice: "tara", response_format: "mp3", input: "Hello there", model: "hfkit-together/orpheus-3b" },
      "audio/mpeg",
    ],
  ])("%s: the same audio and request as 4.13", async (_name, model, parameters, body, type) => {
    const a = args(model, parameters);
    const r = await both(
      ["/together/"],
      () => ours.textToSpeech(a, options()),
      () => hf.textToSpeech(a, { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toMatchObject({ type });
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent[0]).toMatchObject({ path: "/together/v1/audio/speech", body, authorization: "Bearer hf_test" });
  });

  it("another model without a voice: Together's 400, a ValidationError with its body, as 4.13 gets it", async () => {
    const error = await ours.textToSpeech(args("hfkit/text-to-speech-orpheus"), options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.ValidationError);
    expect(error).toMatchObject({
      status: 400,
      body: { error: { message: "voice is required", type: "invalid_request_error" } },
    });
    await expect(hf.textToSpeech(args("hfkit/text-to-speech-orpheus"), { fetch: toHub })).rejects.toMatchObject({
      httpResponse: { status: 400 },
    });
  });

  it("a JSON answer is a provider output error", async () => {
    const fetch = answering("/together/", { url: "https://example.com/a.wav" });
    await expect(ours.textToSpeech(args("hfkit/text-to-speech"), options({ fetch }))).rejects.toBeInstanceOf(
      ours.InferenceClientProviderOutputError,
    );
    await expect(hf.textToSpeech(args("hfkit/text-to-speech"), { fetch })).rejects.toBeInstanceOf(
      hf.InferenceClientProviderOutputError,
    );
  });

  it("no text is an InputError naming inputs, nothing sent", async () => {
    const error = await ours
      .textToSpeech({ ...args("hfkit/text-to-speech"), inputs: 42 as never }, options())
      .catch((e: unknown) => e);
    expect(error).toMatchObject({ field: "inputs" });
    expect(hub.requests).toHaveLength(0);
  });
});

describe("together × automatic-speech-recognition (a multipart form)", () => {
  const args = (inputs: unknown, parameters?: Record<string, unknown>) => ({
    accessToken: TOKEN,
    model: "hfkit/automatic-speech-recognition",
    provider: "together" as const,
    inputs: inputs as Blob,
    parameters,
  });
  /** A recorded form body, as its fields: a file as its name, type and text. */
  async function fields(s: { body: unknown; contentType?: string }): Promise<unknown[]> {
    const form = await new Response(String(s.body), { headers: { "content-type": s.contentType ?? "" } }).formData();
    return Promise.all(
      [...form.entries()].map(async ([k, v]) => [
        k,
        typeof v === "string" ? v : { name: (v as File).name, type: v.type, text: await v.text() },
      ]),
    );
  }

  it.each([
    [
      "a wav Blob",
      () => new Blob(["RIFF-wav"], { type: "audio/wav" }),
      undefined,
      { name: "audio.wav", type: "audio/wav", text: "RIFF-wav" },
      "8 bytes of audio/wav named audio.wav",
    ],
    [
      "an mp3 Blob",
      () => new Blob(["ID3-mp3"], { type: "audio/mpeg" }),
      undefined,
      { name: "audio.mp3", type: "audio/mpeg", text: "ID3-mp3" },
      "7 bytes of audio/mpeg named audio.mp3",
    ],
    [
      "an ArrayBuffer",
      () => new TextEncoder().encode("RIFF").buffer,
      undefined,
      { name: "audio.wav", type: "application/octet-stream", text: "RIFF" },
      "4 bytes of application/octet-stream named audio.wav",
    ],
    [
      "an http(s) URL (Together fetches it)",
      () => "https://example.com/a.wav",
      undefined,
      "https://example.com/a.wav",
      "the audio at https://example.com/a.wav",
    ],
  ])("%s: the same answer and form as 4.13", async (_name, input, parameters, file, text) => {
    const a = args(input(), parameters);
    const r = await both(
      ["/together/"],
      () => ours.automaticSpeechRecognition(a, options()),
      () => hf.automaticSpeechRecognition(a, { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toEqual({ text });
    const [mine, theirs] = [r.mineSent[0]!, r.theirsSent[0]!];
    expect([mine.method, mine.path, mine.authorization]).toEqual([
      "POST",
      "/together/v1/audio/transcriptions",
      "Bearer hf_test",
    ]);
    expect(mine.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(theirs.contentType).toMatch(/^multipart\/form-data; boundary=/);
    expect(await fields(mine)).toEqual(await fields(theirs));
    expect(await fields(mine)).toEqual([
      ["file", file],
      ["model", "hfkit-together/whisper-large-v3"],
    ]);
  });

  it("parameters as form fields (numbers as text), verbose segments as timed chunks: as 4.13", async () => {
    const a = args(new Blob(["RIFF"], { type: "audio/x-wav" }), {
      response_format: "verbose_json",
      language: "en",
      temperature: 0,
    });
    const r = await both(
      ["/together/"],
      () => ours.automaticSpeechRecognition(a, options()),
      () => hf.automaticSpeechRecognition(a, { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    const what = "4 bytes of audio/x-wav named audio.wav";
    expect(r.mine).toEqual({
      text: `${what} in en`,
      chunks: [
        { text: what, timestamp: [0, 1.5] },
        { text: ".", timestamp: [1.5, 2] },
      ],
    });
    expect(await fields(r.mineSent[0]!)).toEqual(await fields(r.theirsSent[0]!));
    expect((await fields(r.mineSent[0]!)).slice(1)).toEqual([
      ["response_format", "verbose_json"],
      ["language", "en"],
      ["temperature", "0"],
      ["model", "hfkit-together/whisper-large-v3"],
    ]);
  });

  it("binary audio reaches Together byte for byte (the older `data` field too)", async () => {
    const bytes = Uint8Array.from({ length: 256 }, (_, i) => i);
    const out = await ours.automaticSpeechRecognition(
      {
        accessToken: TOKEN,
        model: "hfkit/automatic-speech-recognition",
        provider: "together",
        data: new Blob([bytes], { type: "audio/flac" }),
      },
      options(),
    );
    expect(out).toEqual({ text: "256 bytes of audio/flac named audio.flac" });
  });

  it("segments of another shape are a provider output error", async () => {
    const fetch = answering("/together/", { text: "hi", segments: [{ text: "hi" }] });
    await expect(
      ours.automaticSpeechRecognition(args(new Blob(["RIFF"], { type: "audio/wav" })), options({ fetch })),
    ).rejects.toBeInstanceOf(ours.InferenceClientProviderOutputError);
  });

  it("audio that is neither binary nor an http(s) URL: 4.13's InputError, nothing sent", async () => {
    const words =
      "Together automatic-speech-recognition expects a Blob, ArrayBuffer, or HTTP(S) URL string audio input.";
    const error = await ours
      .automaticSpeechRecognition(args("ftp://example.com/a.wav"), options())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InputError);
    expect(error).toMatchObject({ field: "inputs", message: words });
    await expect(hf.automaticSpeechRecognition(args("ftp://example.com/a.wav"), { fetch: toHub })).rejects.toThrow(
      words,
    );
    expect(sent("/together/")).toHaveLength(0);
    expect(lookups().length).toBeLessThanOrEqual(1);
  });
});

describe("nscale × text-to-image", () => {
  const args = {
    accessToken: TOKEN,
    model: "hfkit/text-to-image-nscale",
    provider: "nscale" as const,
    inputs: "a cat",
    parameters: { width: 512, num_inference_steps: 4 },
  };

  it.each([undefined, "blob", "dataUrl", "json"] as const)(
    "outputType %s: the same answer and request as 4.13",
    async (outputType) => {
      const r = await both(
        ["/nscale/"],
        () => ours.textToImage(args, options({ outputType }) as never),
        () => hf.textToImage(args, { fetch: toHub, outputType } as never),
      );
      expect(r.mine).toEqual(r.theirs);
      expect(r.mineSent).toEqual(r.theirsSent);
      expect(r.mineSent[0]).toMatchObject({
        path: "/nscale/v1/images/generations",
        body: {
          width: 512,
          num_inference_steps: 4,
          response_format: "b64_json",
          prompt: "a cat",
          model: "hfkit-nscale/flux-schnell",
        },
        authorization: "Bearer hf_test",
      });
      if (outputType === undefined || outputType === "blob")
        expect(r.mine).toEqual({ type: "image/jpeg", bytes: [...PNG] });
      if (outputType === "dataUrl") expect(r.mine).toBe(`data:image/jpeg;base64,${b64(PNG)}`);
    },
  );

  it("outputType url: 4.13's InputError, before any request (4.13 looks the mapping up first)", async () => {
    const words = "nscale provider does not support URL output. Use outputType 'blob', 'dataUrl' or 'json' instead.";
    const error = await ours.textToImage(args, options({ outputType: "url" }) as never).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InputError);
    expect(error).toMatchObject({ field: "outputType", message: words });
    expect(hub.requests).toHaveLength(0);
    await expect(hf.textToImage(args, { fetch: toHub, outputType: "url" })).rejects.toThrow(words);
    expect(sent("/nscale/")).toHaveLength(0);
  });

  it("an empty prompt is an InputError naming inputs, nothing sent", async () => {
    const error = await ours.textToImage({ ...args, inputs: "" }, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InputError);
    expect(error).toMatchObject({ field: "inputs" });
    expect(hub.requests).toHaveLength(0);
  });
});

describe("zai-org × text-to-image (an async task, polled)", () => {
  const args = (model = "hfkit/text-to-image-zai") => ({
    accessToken: TOKEN,
    model,
    provider: "zai-org" as const,
    inputs: "a cat",
    parameters: { size: "1024x1024" },
  });
  const label = (v: unknown) => (typeof v === "string" ? v.replace(/^data:image\/jpeg;/, "data:image/png;") : v);

  it.each([undefined, "blob", "dataUrl", "json", "url"] as const)(
    "outputType %s: the same answer and requests as 4.13 (x-source-channel, accept-language)",
    async (outputType) => {
      const r = await both(
        ["/zai-org/", "/files/"],
        () => ours.textToImage(args(), options({ outputType }) as never),
        () => hf.textToImage(args(), { fetch: toHub, outputType } as never),
      );
      // 4.13 labels every data: URL image/jpeg; hfkit gives the file's own type (the bytes are the same).
      expect(r.mine).toEqual(label(r.theirs));
      const id = "mock-zai-hfkit-zai-glm-image-5";
      const zai = {
        authorization: "Bearer hf_test",
        contentType: "application/json",
        channel: "hugging_face",
        language: "en-US,en",
      };
      expect(r.mineSent).toEqual([
        {
          method: "POST",
          path: "/zai-org/api/paas/v4/async/images/generations",
          body: { size: "1024x1024", prompt: "a cat", model: "hfkit-zai/glm-image" },
          ...zai,
        },
        { method: "GET", path: `/zai-org/api/paas/v4/async-result/${id}`, body: undefined, ...zai },
        ...(outputType === "url" || outputType === "json"
          ? []
          : [
              {
                method: "GET",
                path: `/files/${id}.png`,
                body: undefined,
                authorization: undefined,
                contentType: undefined,
                channel: undefined,
                language: undefined,
              },
            ]),
      ]);
      expect(r.mineSent.map((s) => [s.method, s.path, s.body, s.authorization, s.channel, s.language])).toEqual(
        r.theirsSent.map((s) => [s.method, s.path, s.body, s.authorization, s.channel, s.language]),
      );
      expect(r.mineWaits).toEqual([5000]);
      expect(r.theirsWaits).toEqual([5000]);
      if (outputType === "url") expect(r.mine).toBe(`${hub.url}/files/${id}.png`);
      if (outputType === undefined) expect(r.mine).toEqual({ type: "image/png", bytes: [...PNG] });
    },
  );

  it("a task that fails when polled is a provider output error, as 4.13", async () => {
    const error = await ours.textToImage(args("hfkit/text-to-image-zai-failing"), options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
    expect((error as Error).message).toBe("ZAI text-to-image API task failed");
    await expect(hf.textToImage(args("hfkit/text-to-image-zai-failing"), { fetch: toHub })).rejects.toThrow(
      "ZAI text-to-image API task failed",
    );
  });

  it("a task FAIL at once is 4.13's error, nothing polled", async () => {
    const fetch = answering("/zai-org/", { id: "t1", task_status: "FAIL" });
    await expect(ours.textToImage(args(), options({ fetch }))).rejects.toThrow("ZAI API returned task status: FAIL");
    expect(waits).toEqual([]);
  });

  it("a result without an http(s) image URL is a provider output error, nothing fetched", async () => {
    const result = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
      String(url).includes("/async-result/")
        ? Promise.resolve(
            new Response(JSON.stringify({ task_status: "SUCCESS", image_result: [{ url: "javascript:alert(1)" }] }), {
              headers: { "content-type": "application/json" },
            }),
          )
        : toHub(url, init);
    await expect(ours.textToImage(args(), options({ fetch: result }))).rejects.toBeInstanceOf(
      ours.InferenceClientProviderOutputError,
    );
    expect(sent("/files/")).toHaveLength(0);
  });

  it("a task still processing after 60 polls is given up on, as 4.13", async () => {
    const processing = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
      String(url).includes("/async-result/")
        ? Promise.resolve(
            new Response(JSON.stringify({ task_status: "PROCESSING" }), {
              headers: { "content-type": "application/json" },
            }),
          )
        : toHub(url, init);
    await expect(ours.textToImage(args(), options({ fetch: processing }))).rejects.toThrow(
      "Timed out while waiting for the result from ZAI API - aborting after 60 attempts",
    );
    expect(waits).toHaveLength(60);
  });

  it("the call's timeout ends the wait between polls: a TimeoutError", async () => {
    vi.stubGlobal("setTimeout", realSetTimeout);
    const error = await ours.textToImage(args(), options({ timeout: 700 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.TimeoutError);
    expect(sent("/zai-org/").map((s) => s.method)).toEqual(["POST"]);
  });

  it("Z.ai's 400 is a ValidationError with its body; an unknown outputType is an InputError, nothing sent", async () => {
    const error = await ours
      .textToImage({ ...args(), parameters: { size: "huge" } }, options())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.ValidationError);
    expect(error).toMatchObject({
      status: 400,
      body: { error: { code: "1214", message: "size must be {width}x{height}" } },
    });
    hub.reset();
    const input = await ours.textToImage(args(), options({ outputType: "png" }) as never).catch((e: unknown) => e);
    expect(input).toMatchObject({ field: "outputType" });
    expect(hub.requests).toHaveLength(0);
  });
});

describe("zai-org × image-to-text (layout parsing)", () => {
  const args = (inputs: unknown) => ({
    accessToken: TOKEN,
    model: "hfkit/image-to-text-zai",
    provider: "zai-org" as const,
    inputs: inputs as Blob,
  });

  it("the image as a data URL, nothing else sent: the same answer and request as 4.13", async () => {
    const a = { ...args(png()), parameters: { max_new_tokens: 5 } };
    const r = await both(
      ["/zai-org/"],
      () => ours.imageToText(a, options()),
      () => hf.imageToText(a, { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    const text = `# Page 1\n\n${PNG.length} bytes of image/png`;
    expect(r.mine).toEqual({ generated_text: text, generatedText: text });
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent).toEqual([
      {
        method: "POST",
        path: "/zai-org/api/paas/v4/layout_parsing",
        body: { model: "hfkit-zai/glm-ocr", file: `data:image/png;base64,${b64(PNG)}` },
        authorization: "Bearer hf_test",
        contentType: "application/json",
        channel: "hugging_face",
        language: "en-US,en",
      },
    ]);
  });

  it("an untyped image is labelled image/png, as 4.13", async () => {
    const a = args(new Blob([PNG]));
    const r = await both(
      ["/zai-org/"],
      () => ours.imageToText(a, options()),
      () => hf.imageToText(a, { fetch: toHub }),
    );
    expect(r.mine).toEqual(r.theirs);
    expect(r.mineSent[0]?.body).toEqual(r.theirsSent[0]?.body);
    expect(r.mineSent[0]?.body).toMatchObject({ file: `data:image/png;base64,${b64(PNG)}` });
  });

  it("an image URL is an InputError (hfkit does not fetch it), nothing sent", async () => {
    const error = await ours.imageToText(args("https://example.com/a.png"), options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InputError);
    expect(error).toMatchObject({ field: "inputs" });
    expect(hub.requests).toHaveLength(0);
  });
});

it("provider auto picks the one live provider mapped for the task among the implemented pairs", async () => {
  const out = await ours.textToSpeech(
    { accessToken: TOKEN, model: "hfkit/text-to-speech", provider: "auto", inputs: "Hi" },
    options(),
  );
  expect(out).toBeInstanceOf(Blob);
  expect(sent("/together/").map((s) => s.path)).toEqual(["/together/v1/audio/speech"]);
});
