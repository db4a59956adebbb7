import { describe, expect, it } from "vitest";
import { DEFAULT_PROVIDER_MAPPINGS } from "../src/index.js";
import { postJson, useHub } from "./helpers.js";

const hub = useHub();
const wait = { prefer: "wait" };
const predict = (model: string, input: Record<string, unknown>, headers = wait) =>
  postJson(`${hub().url}/replicate/v1/models/${model}/predictions`, { input }, headers);
const AUDIO = `data:audio/wav;base64,${btoa("RIFF")}`;

describe("replicate's models", () => {
  it("a speech model reads input.text and answers one audio URL, served", async () => {
    const res = await predict("hfkit-replicate/speech", { text: "hello" });
    const body = (await res.json()) as { status: string; output: string };
    expect(body).toMatchObject({ status: "succeeded", output: `${hub().url}/files/mock-hfkit-replicate-speech.wav` });
    expect((await fetch(body.output)).headers.get("content-type")).toBe("audio/wav");
    const refused = await predict("hfkit-replicate/speech", { prompt: "hello" });
    expect(refused.status).toBe(422);
    expect(await refused.json()).toMatchObject({
      title: "Input validation failed",
      detail: "- input: text is required\n",
      invalid_fields: [{ field: "input.text" }],
    });
  });

  it("a video model answers one video URL; its version at /v1/predictions too", async () => {
    expect(await (await predict("hfkit-replicate/video", { prompt: "a cat" })).json()).toMatchObject({
      output: `${hub().url}/files/mock-hfkit-replicate-video.mp4`,
    });
    const versioned = await postJson(
      `${hub().url}/replicate/v1/predictions`,
      { version: "9f747673", input: { prompt: "a cat" } },
      wait,
    );
    expect(await versioned.json()).toMatchObject({
      status: "succeeded",
      output: `${hub().url}/files/mock-9f747673.mp4`,
    });
    expect((await postJson(`${hub().url}/replicate/v1/predictions`, { input: { prompt: "a cat" } }, wait)).status).toBe(
      422,
    );
  });

  it("an image editor reads input.image (a data: or http(s) URL) and answers a list of one image", async () => {
    const ok = await predict("hfkit-replicate/edit", { image: "data:image/png;base64,iVBORw0KGgo=", prompt: "blue" });
    expect(await ok.json()).toMatchObject({ output: [`${hub().url}/files/mock-hfkit-replicate-edit.png`] });
    expect((await predict("hfkit-replicate/edit", { image: "/etc/passwd" })).status).toBe(422);
  });

  it("whisper transcribes input.audio: its transcription, segments and a text file of it, served", async () => {
    const body = (await (await predict("hfkit-replicate/whisper", { audio: AUDIO })).json()) as {
      output: { transcription: string; txt_file: string };
    };
    expect(body.output).toMatchObject({
      transcription: "4 bytes of audio/wav",
      translation: null,
      detected_language: "english",
    });
    const file = await fetch(body.output.txt_file);
    expect([file.headers.get("content-type"), await file.text()]).toEqual([
      "text/plain; charset=utf-8",
      "4 bytes of audio/wav",
    ]);
    expect(await (await predict("hfkit-replicate/whisper-file", { audio: AUDIO })).json()).toMatchObject({
      output: { txt_file: body.output.txt_file },
    });
    expect(await (await predict("hfkit-replicate/whisper-text", { audio: AUDIO })).json()).toMatchObject({
      output: "4 bytes of audio/wav",
    });
    expect((await predict("hfkit-replicate/whisper", { audio: 3 })).status).toBe(422);
  });

  it("without Prefer: wait a prediction has only started", async () => {
    const res = await predict("hfkit-replicate/speech", { text: "hello" }, {} as typeof wait);
    expect(res.status).toBe(201);
    expect(await res.json()).toMatchObject({ status: "starting", output: null });
  });

  it("maps the hfkit ids the tests use", () => {
    expect(DEFAULT_PROVIDER_MAPPINGS["hfkit/text-to-speech-replicate"]).toEqual({
      replicate: { providerId: "hfkit-replicate/speech", task: "text-to-speech", status: "live" },
    });
    expect(DEFAULT_PROVIDER_MAPPINGS["hfkit/image-text-to-video-wavespeed"]).toEqual({
      wavespeed: { providerId: "hfkit-wavespeed/wan-i2v", task: "image-text-to-video", status: "live" },
    });
  });
});

describe("wavespeed's API v3", () => {
  const submit = (model: string, body: Record<string, unknown>) =>
    postJson(`${hub().url}/wavespeed/api/v3/${model}`, body);
  const poll = async (get: string) =>
    (await fetch(`${hub().url}/wavespeed${new URL(get).pathname}`)).json() as Promise<{
      code: number;
      data: { status: string; outputs: string[]; error: string };
    }>;
  type Submitted = { code: number; message: string; data: { id: string; status: string; urls: { get: string } } };

  it("creates a task, completes it on the first poll, and serves its output", async () => {
    const res = await submit("hfkit-wavespeed/flux", { prompt: "a cat", seed: 1 });
    expect(res.status).toBe(200);
    const created = (await res.json()) as Submitted;
    expect(created).toMatchObject({
      code: 200,
      message: "success",
      data: {
        id: "mock-ws-hfkit-wavespeed--flux",
        status: "created",
        urls: { get: "https://api.wavespeed.ai/api/v3/predictions/mock-ws-hfkit-wavespeed--flux/result" },
      },
    });
    const done = await poll(created.data.urls.get);
    expect(done).toMatchObject({
      code: 200,
      data: { status: "completed", outputs: [`${hub().url}/files/mock-ws-hfkit-wavespeed--flux.png`] },
    });
    expect((await fetch(done.data.outputs[0]!)).headers.get("content-type")).toBe("image/png");
  });

  it("a queued model is processing on the first poll after each submission, then completed", async () => {
    for (let round = 0; round < 2; round++) {
      const { data } = (await (await submit("hfkit-wavespeed/flux-queued", { prompt: "a cat" })).json()) as Submitted;
      expect((await poll(data.urls.get)).data.status).toBe("processing");
      expect((await poll(data.urls.get)).data.status).toBe("completed");
      expect((await poll(data.urls.get)).data.status).toBe("completed");
    }
  });

  it("a failing model's task fails with its error; videos are mp4", async () => {
    const failed = (await (await submit("hfkit-wavespeed/flux-fails", { prompt: "a cat" })).json()) as Submitted;
    expect((await poll(failed.data.urls.get)).data).toMatchObject({
      status: "failed",
      error: "mock: the generation failed",
      outputs: [],
    });
    const video = (await (await submit("hfkit-wavespeed/wan-i2v", { image: "iVBORw0KGgo=" })).json()) as Submitted;
    expect((await poll(video.data.urls.get)).data.outputs[0]).toMatch(/\.mp4$/);
  });

  it("refuses what the model needs missing (400), an unknown model or task (404)", async () => {
    expect(await (await submit("hfkit-wavespeed/flux", {})).json()).toEqual({
      code: 400,
      message: "prompt is required",
      data: null,
    });
    expect((await submit("hfkit-wavespeed/kontext", { prompt: "p" })).status).toBe(400);
    expect((await submit("hfkit-wavespeed/kontext", { prompt: "p", image: "iVBORw0KGgo=", images: [1] })).status).toBe(
      400,
    );
    expect((await submit("hfkit-wavespeed/flux", { prompt: "p", loras: [{ scale: 1 }] })).status).toBe(400);
    expect(
      (
        await submit("hfkit-wavespeed/kontext", {
          prompt: "p",
          image: "https://example.com/a.png",
          loras: [{ path: "org/lora", scale: 1 }],
        })
      ).status,
    ).toBe(200);
    const unknown = await submit("org/nothing", { prompt: "p" });
    expect([unknown.status, await unknown.json()]).toEqual([
      404,
      { code: 404, message: "model not found: org/nothing", data: null },
    ]);
    expect((await fetch(`${hub().url}/wavespeed/api/v3/predictions/other/result`)).status).toBe(404);
  });

  it("answers the proxy's faults for the path's model", async () => {
    hub().inject({ type: "serverError", status: 502 }, { model: "hfkit-wavespeed/flux", times: 1 });
    expect((await submit("hfkit-wavespeed/flux", { prompt: "x" })).status).toBe(502);
    expect((await submit("hfkit-wavespeed/flux", { prompt: "x" })).status).toBe(200);
  });
});
