/** The routes of Together (images with an input image, video jobs, speech, transcriptions), Nscale and Z.ai. */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROVIDER_MAPPINGS } from "../src/index.js";
import { PNG_BASE64 } from "../src/pipelines.js";
import { postJson, useHub } from "./helpers.js";

const hub = useHub();
const json = async (res: Response | Promise<Response>) => {
  const r = await res;
  return { status: r.status, body: (await r.json()) as Record<string, unknown> };
};
const PNG_URL = `data:image/png;base64,${PNG_BASE64}`;

describe("together's images API with an input image", () => {
  const url = () => `${hub().url}/together/v1/images/generations`;

  it("answers the input image's bytes as base64 (reference_images or image_url); the prompt may be empty", async () => {
    const small = `data:image/png;base64,${btoa("not really a png")}`;
    const refs = await json(
      postJson(url(), { model: "t/flux-2", prompt: "", reference_images: [small], response_format: "base64" }),
    );
    expect(refs.status).toBe(200);
    expect(refs.body).toMatchObject({ model: "t/flux-2", data: [{ b64_json: btoa("not really a png") }] });
    const kontext = await json(postJson(url(), { model: "t/kontext", prompt: "blue", image_url: small }));
    expect(kontext.body).toMatchObject({ data: [{ b64_json: btoa("not really a png") }] });
    const hosted = await json(
      postJson(url(), { model: "t/flux-2", prompt: "", reference_images: ["https://example.com/a.png"] }),
    );
    expect(hosted.body).toMatchObject({ data: [{ b64_json: PNG_BASE64 }] });
  });

  it("refuses a bad image field, and an empty prompt without an image", async () => {
    expect(await json(postJson(url(), { model: "t", prompt: "", reference_images: "x" }))).toMatchObject({
      status: 400,
      body: { error: { message: "reference_images must be a non-empty list of image URLs" } },
    });
    expect((await postJson(url(), { model: "t", prompt: "x", reference_images: [] })).status).toBe(400);
    expect((await postJson(url(), { model: "t", prompt: "x", image_url: "ftp://x" })).status).toBe(400);
    expect(await json(postJson(url(), { model: "t", prompt: "" }))).toMatchObject({
      status: 400,
      body: { error: { message: "prompt is required" } },
    });
  });
});

describe("together's video jobs", () => {
  const url = () => `${hub().url}/together/v2/videos`;

  it("queues a job, completes it when polled, and serves its video", async () => {
    const queued = await json(postJson(url(), { model: "t/wan", prompt: "a cat" }));
    expect(queued).toMatchObject({ status: 200, body: { id: "mock-video-t-wan", status: "queued", model: "t/wan" } });
    const job = await json(fetch(`${url()}/mock-video-t-wan`));
    expect(job.body).toMatchObject({
      id: "mock-video-t-wan",
      status: "completed",
      outputs: { video_url: `${hub().url}/files/mock-video-t-wan.mp4` },
    });
    const video = await fetch((job.body.outputs as { video_url: string }).video_url);
    expect(video.headers.get("content-type")).toBe("video/mp4");
    expect((await video.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("takes frame_images instead of a prompt; a failing model's job fails", async () => {
    const frames = await json(
      postJson(url(), { model: "t/failing-i2v", frame_images: [{ input_image: PNG_URL, frame: "first" }] }),
    );
    expect(frames.status).toBe(200);
    expect(await json(fetch(`${url()}/${String(frames.body.id)}`))).toMatchObject({
      body: { status: "failed", error: { message: "the mock failed this job" } },
    });
  });

  it("refuses a job without a model, a prompt or well-formed frames", async () => {
    expect((await postJson(url(), { prompt: "a cat" })).status).toBe(400);
    expect(await json(postJson(url(), { model: "t/wan" }))).toMatchObject({
      status: 400,
      body: { error: { message: "prompt is required" } },
    });
    expect(
      (await postJson(url(), { model: "t/wan", frame_images: [{ input_image: PNG_URL, frame: "middle" }] })).status,
    ).toBe(400);
    expect(
      (await postJson(url(), { model: "t/wan", frame_images: [{ input_image: "nope", frame: "first" }] })).status,
    ).toBe(400);
  });
});

describe("together's speech", () => {
  const url = () => `${hub().url}/together/v1/audio/speech`;

  it("answers wav by default, mp3 when asked; refuses a missing input or voice", async () => {
    const wav = await postJson(url(), { model: "t/kokoro", input: "Hi", voice: "af_alloy" });
    expect([wav.status, wav.headers.get("content-type")]).toEqual([200, "audio/wav"]);
    expect(new TextDecoder().decode((await wav.arrayBuffer()).slice(0, 4))).toBe("RIFF");
    const mp3 = await postJson(url(), { model: "t/kokoro", input: "Hi", voice: "af_alloy", response_format: "mp3" });
    expect(mp3.headers.get("content-type")).toBe("audio/mpeg");
    expect(await json(postJson(url(), { model: "t/kokoro", input: "Hi" }))).toMatchObject({
      status: 400,
      body: { error: { message: "voice is required" } },
    });
    expect((await postJson(url(), { model: "t/kokoro", voice: "af_alloy" })).status).toBe(400);
  });
});

describe("together's transcriptions (a multipart form)", () => {
  const send = (form: FormData) =>
    json(fetch(`${hub().url}/together/v1/audio/transcriptions`, { method: "POST", body: form }));
  const form = (fields: Record<string, string | [Blob, string]>) => {
    const f = new FormData();
    for (const [k, v] of Object.entries(fields)) {
      if (typeof v === "string") f.append(k, v);
      else f.append(k, v[0], v[1]);
    }
    return f;
  };

  it("reads the file's own bytes (any byte value), its type and name; verbose_json adds segments", async () => {
    const bytes = Uint8Array.from({ length: 200 }, (_, i) => 255 - i);
    const plain = await send(
      form({ file: [new Blob([bytes], { type: "audio/ogg" }), "audio.ogg"], model: "t/whisper" }),
    );
    expect(plain).toEqual({ status: 200, body: { text: "200 bytes of audio/ogg named audio.ogg" } });
    const verbose = await send(
      form({
        file: [new Blob(["RIFF"], { type: "audio/wav" }), "a.wav"],
        model: "t/whisper",
        response_format: "verbose_json",
        language: "fr",
      }),
    );
    expect(verbose.body).toMatchObject({
      text: "4 bytes of audio/wav named a.wav in fr",
      segments: [
        { start: 0, end: 1.5, text: "4 bytes of audio/wav named a.wav" },
        { start: 1.5, end: 2, text: "." },
      ],
    });
    expect((await send(form({ file: "https://example.com/a.wav", model: "t/whisper" }))).body).toEqual({
      text: "the audio at https://example.com/a.wav",
    });
  });

  it("refuses a form without a file or a model, and a body that is neither JSON nor a form", async () => {
    expect(await send(form({ model: "t/whisper" }))).toMatchObject({
      status: 400,
      body: { error: { message: "file is required: an audio file or a URL" } },
    });
    expect((await send(form({ file: [new Blob(["x"]), "a.wav"] }))).status).toBe(400);
    const broken = await fetch(`${hub().url}/together/v1/audio/transcriptions`, {
      method: "POST",
      headers: { "content-type": "multipart/form-data; boundary=zzz" },
      body: "not a form",
    });
    expect(broken.status).toBe(400);
  });

  it("answers the proxy's faults for the form's model", async () => {
    hub().inject({ type: "serverError", status: 502 }, { model: "t/whisper", times: 1 });
    expect((await send(form({ file: [new Blob(["x"]), "a.wav"], model: "t/whisper" }))).status).toBe(502);
    expect((await send(form({ file: [new Blob(["x"]), "a.wav"], model: "t/whisper" }))).status).toBe(200);
  });
});

describe("nscale's images API", () => {
  const url = () => `${hub().url}/nscale/v1/images/generations`;

  it("answers b64_json; refuses another response_format, a missing prompt or model", async () => {
    expect(
      await json(postJson(url(), { model: "n/flux", prompt: "a cat", response_format: "b64_json" })),
    ).toMatchObject({ status: 200, body: { data: [{ b64_json: PNG_BASE64 }] } });
    expect(await json(postJson(url(), { model: "n/flux", prompt: "a cat", response_format: "url" }))).toMatchObject({
      status: 400,
      body: { error: { message: "response_format must be b64_json" } },
    });
    expect((await postJson(url(), { model: "n/flux" })).status).toBe(400);
    expect((await postJson(url(), { prompt: "a cat" })).status).toBe(400);
  });
});

describe("z.ai's async images and layout parsing", () => {
  const base = () => `${hub().url}/zai-org/api/paas/v4`;

  it("a task PROCESSING, then SUCCESS when its result is asked for, its image served", async () => {
    const task = await json(postJson(`${base()}/async/images/generations`, { model: "z/glm-image", prompt: "a cat" }));
    expect(task).toMatchObject({ status: 200, body: { id: "mock-zai-z-glm-image-5", task_status: "PROCESSING" } });
    const result = await json(fetch(`${base()}/async-result/mock-zai-z-glm-image-5`));
    expect(result.body).toMatchObject({
      task_status: "SUCCESS",
      image_result: [{ url: `${hub().url}/files/mock-zai-z-glm-image-5.png` }],
    });
    expect((await fetch(`${hub().url}/files/mock-zai-z-glm-image-5.png`)).headers.get("content-type")).toBe(
      "image/png",
    );
    expect((await json(fetch(`${base()}/async-result/mock-zai-failing-5`))).body).toMatchObject({
      task_status: "FAIL",
    });
  });

  it("refuses a task without a model or prompt, or with a bad size, in Z.ai's error shape", async () => {
    expect(await json(postJson(`${base()}/async/images/generations`, { model: "z/glm-image" }))).toEqual({
      status: 400,
      body: { error: { code: "1214", message: "prompt is required" } },
    });
    expect((await postJson(`${base()}/async/images/generations`, { prompt: "a cat" })).status).toBe(400);
    expect(
      (await postJson(`${base()}/async/images/generations`, { model: "z", prompt: "a cat", size: "big" })).status,
    ).toBe(400);
  });

  it("layout parsing answers markdown of what it received; refuses a file that is not a data URL or a URL", async () => {
    const parsed = await json(
      postJson(`${base()}/layout_parsing`, { model: "z/ocr", file: `data:image/jpeg;base64,${btoa("abc")}` }),
    );
    expect(parsed).toMatchObject({
      status: 200,
      body: { model: "z/ocr", md_results: "# Page 1\n\n3 bytes of image/jpeg" },
    });
    expect(
      (await json(postJson(`${base()}/layout_parsing`, { model: "z/ocr", file: "https://example.com/a.png" }))).body,
    ).toMatchObject({ md_results: "# Page 1\n\nthe image at https://example.com/a.png" });
    expect(await json(postJson(`${base()}/layout_parsing`, { model: "z/ocr", file: "abc" }))).toMatchObject({
      status: 400,
      body: { error: { code: "1214" } },
    });
    expect((await postJson(`${base()}/layout_parsing`, { file: `data:image/png;base64,${btoa("abc")}` })).status).toBe(
      400,
    );
  });
});

it("maps the hfkit ids of these pairs, keeping the other providers' mappings of the same id", () => {
  expect(Object.keys(DEFAULT_PROVIDER_MAPPINGS["hfkit/automatic-speech-recognition"] ?? {})).toEqual([
    "fal-ai",
    "together",
  ]);
  expect(DEFAULT_PROVIDER_MAPPINGS["hfkit/text-to-image-nscale"]).toEqual({
    nscale: { providerId: "hfkit-nscale/flux-schnell", task: "text-to-image", status: "live" },
  });
  expect(DEFAULT_PROVIDER_MAPPINGS["hfkit/image-to-text-zai"]?.["zai-org"]).toMatchObject({
    task: "image-to-text",
    status: "live",
  });
  expect(DEFAULT_PROVIDER_MAPPINGS["hfkit/text-to-video"]?.together).toMatchObject({ task: "text-to-video" });
});
