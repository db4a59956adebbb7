/**
 * The fal-ai pairs, over loopback HTTP against the mock hub: the same call through hfkit and through
 * `@huggingface/inference` 4.13.30, the same answers and the same requests (submitted to fal's queue, its
 * status polled, its result read, the media it names fetched; text-to-speech answered at once); LoRA adapters
 * from the Hub's mapping; the provider's errors typed; malformed answers refused; bad inputs refused before any request.
 */
import * as hf from "@huggingface/inference";
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as ours from "../src/index";
import { mappingMemory } from "../src/targets/providers/mapping";

let hub: MockHub;
const MODELS = {
  // A mapping to an app fal does not serve (its 404), and to the image-to-image app for image-text-to-image (its 422 without an image).
  "org/fal-missing": {
    inferenceProviderMapping: {
      "fal-ai": { providerId: "hfkit-fal/nothing", task: "text-to-video", status: "live" as const },
    },
  },
  "org/fal-edit-text": {
    inferenceProviderMapping: {
      "fal-ai": { providerId: "hfkit-fal/edit", task: "image-text-to-image", status: "live" as const },
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
  // 4.13 polls fal's queue and fetches the media with the global fetch, not its `fetch` option.
  vi.stubGlobal("fetch", toHub);
});
afterEach(() => void vi.unstubAllGlobals());

const realFetch = globalThis.fetch;
/** Sends the router's and the Hub's URLs to the mock hub. */
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
const json = (body: unknown, status = 200) =>
  new Response(JSON.stringify(body), { status, headers: { "content-type": "application/json" } });

/** What fal saw: method, path, body, token, and the body's type for a POST. */
const falSent = () =>
  hub.requests
    .filter((r) => r.path.startsWith("/fal-ai/"))
    .map((r) => [
      r.method,
      r.path,
      r.body,
      r.headers.authorization,
      r.method === "POST" ? r.headers["content-type"] : "-",
    ]);
const files = () => hub.requests.filter((r) => r.path.startsWith("/files/"));

async function plain(value: unknown): Promise<unknown> {
  if (value instanceof Blob) return { type: value.type, bytes: [...new Uint8Array(await value.arrayBuffer())] };
  return value;
}

const PNG = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 13, 10, 26, 10, 1, 2, 3]);
const image = (type = "image/png") => new Blob([PNG], { type });
const dataUrl = (type: string, bytes: Uint8Array) => `data:${type};base64,${btoa(String.fromCharCode(...bytes))}`;
const PNG_URL = dataUrl("image/png", PNG);
const WAV = new Uint8Array([82, 73, 70, 70, 0, 1, 2]);

type Call = (lib: any, args: Record<string, unknown>, opts: Record<string, unknown>) => Promise<unknown>;
const task =
  (name: string): Call =>
  (lib, args, opts) =>
    lib[name](args, opts);

/** Runs `call` through hfkit, then through 4.13 (the hub reset between): both answers and what fal saw each time. */
async function both(call: Call, args: Record<string, unknown>) {
  const mine = await call(ours, args, options());
  const mineSent = falSent();
  const mineFiles = files();
  hub.reset();
  const theirs = await call(hf, args, { fetch: toHub });
  return { mine: await plain(mine), theirs: await plain(theirs), mineSent, theirsSent: falSent(), mineFiles };
}

const queue = (app: string, body: unknown, id: string, polled = app) => [
  ["POST", `/fal-ai/${app}?_subdomain=queue`, body, "Bearer hf_test", "application/json"],
  ["GET", `/fal-ai/${polled}/requests/${id}/status?_subdomain=queue`, undefined, "Bearer hf_test", "-"],
  ["GET", `/fal-ai/${polled}/requests/${id}?_subdomain=queue`, undefined, "Bearer hf_test", "-"],
];
const base = (model: string) => ({ accessToken: "hf_test", model, provider: "fal-ai" as const });

const MP4 = [0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70];

describe("each fal-ai pair: the same answer and the same requests as 4.13", () => {
  it("textToSpeech: one request (not queued), {text, ...parameters}; the audio it names fetched", async () => {
    const r = await both(task("textToSpeech"), {
      ...base("hfkit/text-to-speech-fal"),
      inputs: "hello",
      parameters: { voice: "af" },
    });
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toMatchObject({ type: "audio/mpeg" });
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent).toEqual([
      ["POST", "/fal-ai/hfkit-fal/tts", { voice: "af", text: "hello" }, "Bearer hf_test", "application/json"],
    ]);
    expect(r.mineFiles.map((f) => [f.path, f.headers.authorization])).toEqual([["/files/mock-fal-5.mp3", undefined]]);
  });

  it("textToAudio: queued {prompt, ...parameters}; the result's audio_file fetched", async () => {
    const r = await both(task("textToAudio"), {
      ...base("hfkit/text-to-audio-fal"),
      inputs: "rain",
      parameters: { seconds_total: 3 },
    });
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toMatchObject({ type: "audio/wav" });
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent).toEqual(queue("hfkit-fal/music", { seconds_total: 3, prompt: "rain" }, "mock-fal-4"));
  });

  it("textToVideo: queued {prompt, ...parameters}; the result's video fetched", async () => {
    const r = await both(task("textToVideo"), {
      ...base("hfkit/text-to-video-fal"),
      inputs: "a cat",
      parameters: { num_frames: 9 },
    });
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toMatchObject({ type: "video/mp4", bytes: expect.arrayContaining(MP4) });
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent).toEqual(queue("hfkit-fal/video", { num_frames: 9, prompt: "a cat" }, "mock-fal-5"));
    expect(r.mineFiles.map((f) => [f.path, f.headers.authorization])).toEqual([["/files/mock-fal-5.mp4", undefined]]);
  });

  it("imageToImage: the image as image_url and image_urls (data URLs), the parameters spread; the first image fetched", async () => {
    const r = await both(task("imageToImage"), {
      ...base("hfkit/image-to-image-fal"),
      inputs: image(),
      parameters: { prompt: "blue", strength: 0.5 },
    });
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toMatchObject({ type: "image/png" });
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent).toEqual(
      queue(
        "hfkit-fal/edit",
        { prompt: "blue", strength: 0.5, image_url: PNG_URL, image_urls: [PNG_URL] },
        "mock-fal-4",
      ),
    );
  });

  it("imageTextToImage with an image: as image-to-image, to the app's variant; the queue polled under the app", async () => {
    const r = await both(task("imageTextToImage"), {
      ...base("hfkit/image-text-to-image-fal"),
      inputs: image("image/jpeg"),
      parameters: { prompt: "a hat" },
    });
    expect(r.mine).toEqual(r.theirs);
    expect(r.mineSent).toEqual(r.theirsSent);
    const url = dataUrl("image/jpeg", PNG);
    expect(r.mineSent).toEqual(
      queue(
        "hfkit-fal/flux-2/edit",
        { prompt: "a hat", image_url: url, image_urls: [url] },
        "mock-fal-5",
        "hfkit-fal/flux-2",
      ),
    );
  });

  it("imageTextToImage without an image: the parameters (the prompt) alone, to the same route (through the router 4.13 keeps it)", async () => {
    const r = await both(task("imageTextToImage"), {
      ...base("hfkit/image-text-to-image-fal"),
      parameters: { prompt: "a hat", seed: 3 },
    });
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toMatchObject({ type: "image/png" });
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent).toEqual(
      queue("hfkit-fal/flux-2/edit", { prompt: "a hat", seed: 3 }, "mock-fal-5", "hfkit-fal/flux-2"),
    );
  });

  it("imageToVideo: {...parameters, image_url}; the result's video fetched", async () => {
    const r = await both(task("imageToVideo"), {
      ...base("hfkit/image-to-video-fal"),
      inputs: image(),
      parameters: { duration: "5" },
    });
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toMatchObject({ type: "video/mp4" });
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent).toEqual(
      queue("hfkit-fal/animate", { duration: "5", image_url: PNG_URL }, `mock-fal-${PNG_URL.length}`),
    );
  });

  it.each([
    ["with an image", { inputs: image(), parameters: { prompt: "waves" } }, { prompt: "waves", image_url: PNG_URL }],
    ["without one", { parameters: { prompt: "waves", fps: 8 } }, { prompt: "waves", fps: 8 }],
  ])("imageTextToVideo %s", async (_, input, body) => {
    const r = await both(task("imageTextToVideo"), { ...base("hfkit/image-text-to-video-fal"), ...input });
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toMatchObject({ type: "video/mp4" });
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent).toEqual(queue("hfkit-fal/ltx/image-to-video", body, "mock-fal-5", "hfkit-fal/ltx"));
  });

  it.each([
    ["inputs", "audio/wav", "audio/x-wav"],
    ["data", "audio/webm", "video/webm"],
  ])(
    "audioToAudio (the audio as %s, %s): audio_url labelled as fal decodes it; one base64 audio labelled speech",
    async (field, type, label) => {
      const r = await both(task("audioToAudio"), {
        ...base("hfkit/audio-to-audio-fal"),
        [field]: new Blob([WAV], { type }),
        parameters: { stems: 2 },
      });
      expect(r.mine).toEqual(r.theirs);
      const wav = new Uint8Array(await (await realFetch(`${hub.url}/files/x.wav`)).arrayBuffer());
      expect(r.mine).toEqual([
        { blob: btoa(String.fromCharCode(...wav)), "content-type": "audio/wav", label: "speech" },
      ]);
      expect(r.mineSent).toEqual(r.theirsSent);
      const url = dataUrl(label, WAV);
      expect(r.mineSent).toEqual(queue("hfkit-fal/separate", { stems: 2, audio_url: url }, `mock-fal-${url.length}`));
    },
  );

  it("imageSegmentation: {...parameters, image_url, sync_mode: true}; the mask as one segment (label mask, score 1)", async () => {
    const r = await both(task("imageSegmentation"), {
      ...base("hfkit/image-segmentation-fal"),
      inputs: image(),
      parameters: { threshold: 0.5 },
    });
    expect(r.mine).toEqual(r.theirs);
    expect(r.mine).toEqual([{ label: "mask", score: 1, mask: expect.stringMatching(/^iVBORw0KGgo/) }]);
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent).toEqual(
      queue(
        "hfkit-fal/birefnet",
        { threshold: 0.5, image_url: PNG_URL, sync_mode: true },
        `mock-fal-${PNG_URL.length}`,
      ),
    );
  });

  it('"auto" picks fal-ai, the one live provider mapped for the task', async () => {
    const r = await both(task("textToVideo"), {
      accessToken: "hf_test",
      model: "hfkit/text-to-video-fal",
      provider: "auto",
      inputs: "a cat",
    });
    expect(r.mine).toEqual(r.theirs);
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent[0]?.[1]).toBe("/fal-ai/hfkit-fal/video?_subdomain=queue");
  });

  it("a queue still working is polled every 500 ms until it completes, as 4.13", async () => {
    let polls = 0;
    const slow = (url: RequestInfo | URL, init?: RequestInit) =>
      String(url).includes("/status?") && ++polls <= 2
        ? Promise.resolve(json({ status: "IN_PROGRESS" }))
        : toHub(url, init);
    vi.stubGlobal("fetch", slow);
    const args = { ...base("hfkit/text-to-video-fal"), inputs: "a cat" };
    const mine = await ours.textToVideo(args, options({ fetch: slow }));
    expect([polls, falSent().length]).toEqual([3, 3]);
    polls = 0;
    hub.reset();
    const theirs = await hf.textToVideo(args, { fetch: slow });
    expect([polls, falSent().length]).toEqual([3, 3]);
    expect(await plain(mine)).toEqual(await plain(theirs));
  }, 10_000);
});

describe("LoRA adapters mapped to a fal base model", () => {
  const weights = (model: string, file: string) => [
    { path: `https://huggingface.co/${model}/resolve/main/${file}`, scale: 1 },
  ];

  it("text-to-image: the base model's route, the adapter's weights on the Hub as loras", async () => {
    const r = await both((lib, args, opts) => lib.textToImage(args, { ...opts, outputType: "url" }), {
      ...base("hfkit/lora-flux"),
      inputs: "a cat",
    });
    expect(r.mine).toEqual(r.theirs);
    expect(r.mineSent).toEqual(r.theirsSent);
    expect(r.mineSent).toEqual(
      queue(
        "hfkit-fal/flux-lora",
        { prompt: "a cat", loras: weights("hfkit/lora-flux", "weights/lora.safetensors") },
        "mock-fal-5",
      ),
    );
  });

  it("text-to-image on fal-ai/lora: the SDXL base named as model_name", async () => {
    const r = await both(task("textToImage"), { ...base("hfkit/lora-sdxl"), inputs: "a cat" });
    expect(r.mine).toEqual(r.theirs);
    expect(r.mineSent).toEqual(r.theirsSent);
    const body = {
      prompt: "a cat",
      loras: weights("hfkit/lora-sdxl", "pytorch_lora_weights.safetensors"),
      model_name: "stabilityai/stable-diffusion-xl-base-1.0",
    };
    expect(r.mineSent).toEqual(queue("fal-ai/lora", body, "mock-fal-5"));
  });

  it("image-to-image and text-to-video send the adapter too, as 4.13", async () => {
    const i2i = await both(task("imageToImage"), {
      ...base("hfkit/lora-image-to-image"),
      inputs: image(),
      parameters: { prompt: "blue" },
    });
    expect(i2i.mineSent).toEqual(i2i.theirsSent);
    expect(i2i.mineSent[0]?.[2]).toMatchObject({ loras: weights("hfkit/lora-image-to-image", "lora.safetensors") });
    hub.reset();
    const t2v = await both(task("textToVideo"), { ...base("hfkit/lora-text-to-video"), inputs: "a cat" });
    expect(t2v.mineSent).toEqual(t2v.theirsSent);
    expect(t2v.mineSent[0]?.[2]).toEqual({
      prompt: "a cat",
      loras: weights("hfkit/lora-text-to-video", "lora.safetensors"),
    });
  });
});

/** Each pair: its task, model, arguments, fal's app, and whether it is queued. */
const PAIRS = [
  ["textToSpeech", "hfkit/text-to-speech-fal", { inputs: "hello" }, "hfkit-fal/tts", false],
  ["textToAudio", "hfkit/text-to-audio-fal", { inputs: "rain" }, "hfkit-fal/music", true],
  ["textToVideo", "hfkit/text-to-video-fal", { inputs: "a cat" }, "hfkit-fal/video", true],
  [
    "imageToImage",
    "hfkit/image-to-image-fal",
    { inputs: image(), parameters: { prompt: "blue" } },
    "hfkit-fal/edit",
    true,
  ],
  [
    "imageTextToImage",
    "hfkit/image-text-to-image-fal",
    { parameters: { prompt: "a hat" } },
    "hfkit-fal/flux-2/edit",
    true,
  ],
  ["imageToVideo", "hfkit/image-to-video-fal", { inputs: image() }, "hfkit-fal/animate", true],
  [
    "imageTextToVideo",
    "hfkit/image-text-to-video-fal",
    { parameters: { prompt: "waves" } },
    "hfkit-fal/ltx/image-to-video",
    true,
  ],
  [
    "audioToAudio",
    "hfkit/audio-to-audio-fal",
    { inputs: new Blob([WAV], { type: "audio/wav" }) },
    "hfkit-fal/separate",
    true,
  ],
  ["imageSegmentation", "hfkit/image-segmentation-fal", { inputs: image() }, "hfkit-fal/birefnet", true],
] as const;
const call = (name: string, args: Record<string, unknown>, opts: Record<string, unknown>) =>
  (ours as any)[name](args, options({ maxRetries: 0, ...opts })).catch((e: unknown) => e);

describe.each(PAIRS)("%s: the provider's errors", (name, model, input, app, queued) => {
  const args = { ...base(model), ...input };

  it("a 5xx is a ServerError (a provider API error) keeping its status and body", async () => {
    hub.inject({ type: "serverError", status: 503, body: "fal is down" }, { model: app, times: 1 });
    const error = await call(name, args, {});
    expect(error).toBeInstanceOf(ours.ServerError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({ status: 503, body: "fal is down" });
    expect(String(error)).not.toContain("hf_test");
    await expect(call(name, args, {})).resolves.not.toBeInstanceOf(Error);
  });

  it("a 4xx is typed too, keeping its status and body", async () => {
    hub.inject({ type: "unauthorized" }, { model: app, times: 1 });
    const error = await call(name, args, {});
    expect(error).toBeInstanceOf(ours.AuthenticationError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({ status: 401, body: { error: "Invalid username or password." } });
  });

  it("a malformed answer is a provider output error, the token never quoted", async () => {
    const bad = (url: RequestInfo | URL, init?: RequestInit) =>
      queued && !String(url).includes("/requests/")
        ? toHub(url, init)
        : String(url).includes("/status?")
          ? toHub(url, init)
          : String(url).includes("/fal-ai/")
            ? Promise.resolve(json({ unexpected: "hf_test" }))
            : toHub(url, init);
    const error = await call(name, args, { fetch: bad });
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
    expect((error as Error).message).toMatch(
      /^Received malformed response from the Fal\.ai .+ API: expected \{ .+, got \{"unexpected":"\[REDACTED\]"\}$/i,
    );
    expect((error as Error).message).not.toContain("hf_test");
  });

  it("a media URL that is not http(s) is refused, nothing fetched", async () => {
    const field = {
      textToSpeech: { audio: { url: "file:///etc/passwd" } },
      textToAudio: { audio_file: { url: "file:///x" } },
      audioToAudio: { audio: { url: "file:///x" } },
      imageSegmentation: { image: { url: "file:///x" } },
    } as Record<string, unknown>;
    const answer =
      field[name] ?? (name.includes("Video") ? { video: { url: "file:///x" } } : { images: [{ url: "file:///x" }] });
    const bad = (url: RequestInfo | URL, init?: RequestInit) =>
      String(url).includes("/status?") ||
      (queued && !String(url).includes("/requests/")) ||
      !String(url).includes("/fal-ai/")
        ? toHub(url, init)
        : Promise.resolve(json(answer));
    const error = await call(name, args, { fetch: bad });
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
    expect((error as Error).message).toMatch(/^Received malformed response from the Fal\.ai /);
    expect(files()).toHaveLength(0);
  });
});

it("textToImage asked for the URL: one that is not http(s) is refused, not answered", async () => {
  const bad = (url: RequestInfo | URL, init?: RequestInit) =>
    /\/requests\/[^/]+\?/.test(String(url))
      ? Promise.resolve(json({ images: [{ url: "javascript:alert(1)" }] }))
      : toHub(url, init);
  const error = await ours
    .textToImage(
      { ...base("hfkit/text-to-image-fal"), inputs: "a cat" },
      { ...options({ fetch: bad }), outputType: "url" },
    )
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
});

describe("fal's queue and files, refused where they misbehave", () => {
  const args = { ...base("hfkit/text-to-video-fal"), inputs: "a cat" };

  it("a submission without a request ID: 4.13's words", async () => {
    const bad = (url: RequestInfo | URL, init?: RequestInit) =>
      String(url).includes("/fal-ai/") ? Promise.resolve(json({ status: "IN_QUEUE" })) : toHub(url, init);
    const error = await ours.textToVideo(args, options({ fetch: bad })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
    expect((error as Error).message).toBe(
      "Received malformed response from Fal.ai text-to-video API: no request ID found in the response",
    );
    vi.stubGlobal("fetch", bad);
    await expect(hf.textToVideo(args, { fetch: bad })).rejects.toThrow(
      "Received malformed response from Fal.ai text-to-video API: no request ID found in the response",
    );
  });

  it.each([undefined, "file:///queue/requests/1", 7])(
    "a submission whose response_url is %j: a provider output error, nothing polled",
    async (responseUrl) => {
      const bad = (url: RequestInfo | URL, init?: RequestInit) =>
        String(url).includes("/fal-ai/")
          ? Promise.resolve(json({ request_id: "r1", status: "IN_QUEUE", response_url: responseUrl }))
          : toHub(url, init);
      let polled = 0;
      const counting = (url: RequestInfo | URL, init?: RequestInit) => (
        String(url).includes("/fal-ai/") && ++polled,
        bad(url, init)
      );
      const error = await ours.textToVideo(args, options({ fetch: counting })).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
      expect((error as Error).message).toMatch(/expected an http\(s\) response_url/);
      expect(polled).toBe(1);
    },
  );

  it("a status that is not JSON with a status: a provider output error (4.13 would poll on forever)", async () => {
    const bad = (url: RequestInfo | URL, init?: RequestInit) =>
      String(url).includes("/status?") ? Promise.resolve(json({ nothing: 1 })) : toHub(url, init);
    const error = await ours.textToVideo(args, options({ fetch: bad })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderOutputError);
    expect(falSent().filter((r) => String(r[1]).includes("/status?"))).toHaveLength(0);
  });

  it("a queue that never completes ends at the call's deadline, a TimeoutError", async () => {
    const never = (url: RequestInfo | URL, init?: RequestInit) =>
      String(url).includes("/status?") ? Promise.resolve(json({ status: "IN_QUEUE" })) : toHub(url, init);
    const started = Date.now();
    const error = await ours.textToVideo(args, options({ fetch: never, timeout: 1200 })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.TimeoutError);
    expect(Date.now() - started).toBeLessThan(3000);
  });

  it("a file that fails to download is the provider's typed error (4.13 answers the error page as the video)", async () => {
    const gone = (url: RequestInfo | URL, init?: RequestInit) =>
      /\/requests\/[^/]+\?/.test(String(url))
        ? Promise.resolve(json({ video: { url: `${hub.url}/files/missing.gif` } }))
        : toHub(url, init);
    const error = await ours.textToVideo(args, options({ fetch: gone })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.NotFoundError);
    expect(error).toMatchObject({ status: 404 });
    vi.stubGlobal("fetch", gone);
    const theirs = await hf.textToVideo(args, { fetch: gone });
    expect(theirs).toBeInstanceOf(Blob);
  });

  it("an app fal does not serve: its 404, a NotFoundError with its body", async () => {
    const error = await ours.textToVideo({ ...args, model: "org/fal-missing" }, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.NotFoundError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(error).toMatchObject({ status: 404, body: { detail: "Application 'nothing' not found" } });
    await expect(hf.textToVideo({ ...args, model: "org/fal-missing" }, { fetch: toHub })).rejects.toMatchObject({
      httpResponse: { status: 404 },
    });
  });

  it("fields the app needs missing: fal's 422, a ValidationError with its detail", async () => {
    const error = await ours
      .imageTextToImage({ ...base("org/fal-edit-text"), parameters: { prompt: "a hat" } }, options())
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.ValidationError);
    expect(error).toMatchObject({
      status: 422,
      body: { detail: [{ loc: ["body", "image_url"], msg: "Unsupported data URL", type: "value_error" }] },
    });
  });
});

describe("inputs refused before any request", () => {
  it.each([
    ["textToVideo", { inputs: "" }, "inputs"],
    ["textToSpeech", { inputs: 3 }, "inputs"],
    ["textToAudio", {}, "inputs"],
    ["textToVideo", { inputs: "a cat", parameters: "fast" }, "parameters"],
    ["imageToVideo", {}, "inputs"],
    ["imageToImage", { inputs: "not an image" }, "inputs"],
    ["imageSegmentation", { inputs: new Blob([]) }, "inputs"],
    ["imageTextToImage", { parameters: { seed: 1 } }, "parameters.prompt"],
    ["imageTextToVideo", {}, "parameters.prompt"],
    ["audioToAudio", { inputs: new Blob([WAV], { type: "audio/ogg" }) }, "inputs"],
    ["audioToAudio", { inputs: WAV.buffer }, "inputs"],
    ["audioToAudio", { data: new Blob([WAV]) }, "data"],
  ] as const)("%s %j: an InputError naming %s, nothing sent", async (name, input, field) => {
    const model = PAIRS.find((p) => p[0] === name)?.[1];
    const error = await call(name, { ...base(model!), ...input }, {});
    expect(error).toBeInstanceOf(ours.InferenceClientInputError);
    expect(error).toMatchObject({ field });
    expect(hub.requests).toHaveLength(0);
  });

  it("audio fal cannot decode, or not a Blob: 4.13's words", async () => {
    const ogg = { ...base("hfkit/audio-to-audio-fal"), inputs: new Blob([WAV], { type: "audio/ogg" }) };
    const words =
      /^Provider fal-ai does not support blob type audio\/ogg - supported content types are: audio\/mpeg, audio\/mp3/;
    expect(String((await call("audioToAudio", ogg, {})).message)).toMatch(words);
    await expect(hf.audioToAudio(ogg as never, { fetch: toHub })).rejects.toThrow(words);
    const buffer = { ...base("hfkit/audio-to-audio-fal"), inputs: WAV.buffer };
    expect((await call("audioToAudio", buffer, {})).message).toBe(
      "Expected a Blob input for audio-to-audio with provider fal-ai, got object.",
    );
    await expect(hf.audioToAudio(buffer as never, { fetch: toHub })).rejects.toThrow(
      "Expected a Blob input for audio-to-audio with provider fal-ai, got object.",
    );
  });

  it("imageTextToImage with neither an image nor a prompt: refused here; 4.13 sends the parameters and fal answers 422", async () => {
    const args = { ...base("hfkit/image-text-to-image-fal"), parameters: { seed: 1 } };
    await expect(ours.imageTextToImage(args, options())).rejects.toMatchObject({ field: "parameters.prompt" });
    await expect(hf.imageTextToImage(args as never, { fetch: toHub })).rejects.toMatchObject({
      httpResponse: { status: 422 },
    });
    expect(falSent()).toEqual([
      ["POST", "/fal-ai/hfkit-fal/flux-2/edit?_subdomain=queue", { seed: 1 }, "Bearer hf_test", "application/json"],
    ]);
  });

  it("an image Blob without a type is labelled image/png (4.13 sends data:;base64)", async () => {
    await ours.imageToVideo({ ...base("hfkit/image-to-video-fal"), inputs: new Blob([PNG]) }, options());
    expect(falSent()[0]?.[2]).toEqual({ image_url: PNG_URL });
  });
});
