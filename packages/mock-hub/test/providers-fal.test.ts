import { describe, expect, it } from "vitest";
import { DEFAULT_PROVIDER_MAPPINGS } from "../src/index.js";
import { postJson, useHub } from "./helpers.js";

const hub = useHub();
const fal = (path: string) => `${hub().url}/fal-ai/${path}`;
const IMAGE = "data:image/png;base64,iVBORw0KGgo=";
const WAV = `data:audio/x-wav;base64,${btoa("RIFF")}`;
const LORAS = [{ path: "https://huggingface.co/o/m/resolve/main/lora.safetensors", scale: 1 }];

/** Each app: a body it takes, the field its result names the file at, the file's type. */
const APPS = [
  ["flux", { prompt: "a cat" }, ["images", 0], "image/png"],
  ["flux-lora", { prompt: "a cat", loras: LORAS }, ["images", 0], "image/png"],
  ["lora", { prompt: "a cat", loras: LORAS, model_name: "sdxl" }, ["images", 0], "image/png"],
  ["edit", { image_url: IMAGE, image_urls: [IMAGE] }, ["images", 0], "image/png"],
  ["flux-2/edit", { prompt: "a hat", image_urls: [IMAGE] }, ["images", 0], "image/png"],
  ["video", { prompt: "a cat" }, ["video"], "video/mp4"],
  ["ltx/image-to-video", { prompt: "waves" }, ["video"], "video/mp4"],
  ["animate", { image_url: IMAGE }, ["video"], "video/mp4"],
  ["music", { prompt: "rain" }, ["audio_file"], "audio/wav"],
  ["tts", { text: "hello" }, ["audio"], "audio/mpeg"],
  ["separate", { audio_url: WAV }, ["audio"], "audio/wav"],
  ["birefnet", { image_url: IMAGE, sync_mode: true }, ["image"], "image/png"],
] as const;

const at = (value: unknown, keys: readonly (string | number)[]): any => keys.reduce((o: any, k) => o?.[k], value);

describe("fal's apps through the queue", () => {
  it.each(APPS)("%s: queued, COMPLETED, its result naming a file of its type", async (app, body, keys, type) => {
    const res = await postJson(fal(`o/${app}?_subdomain=queue`), body);
    expect(res.status).toBe(200);
    const queued = (await res.json()) as { request_id: string; status: string; response_url: string };
    const name = app.split("/")[0];
    expect(queued).toMatchObject({
      status: "IN_QUEUE",
      response_url: `https://queue.fal.run/o/${name}/requests/${queued.request_id}`,
    });
    const path = new URL(queued.response_url).pathname;
    expect(await (await fetch(`${hub().url}/fal-ai${path}/status?_subdomain=queue`)).json()).toMatchObject({
      status: "COMPLETED",
      request_id: queued.request_id,
    });
    const result = await (await fetch(`${hub().url}/fal-ai${path}?_subdomain=queue`)).json();
    const file = at(result, keys) as { url: string; content_type: string };
    expect(file).toMatchObject({
      url: `${hub().url}/files/${queued.request_id}.${file.url.split(".").pop()}`,
      content_type: type,
    });
    const served = await fetch(file.url);
    expect([served.status, served.headers.get("content-type")]).toEqual([200, type]);
  });

  it("without the queue, an app answers its result at once", async () => {
    const res = await postJson(fal("o/tts"), { text: "hello" });
    expect(await res.json()).toEqual({
      audio: { url: `${hub().url}/files/mock-fal-5.mp3`, content_type: "audio/mpeg", file_name: "mock-fal-5.mp3" },
    });
    const video = await (await postJson(fal("o/video"), { prompt: "a cat" })).json();
    expect(video).toMatchObject({ video: { url: `${hub().url}/files/mock-fal-5.mp4` } });
  });

  it("request ids are deterministic: the length of the prompt, the text or the input URL", async () => {
    const id = async (app: string, body: unknown) =>
      ((await (await postJson(fal(`o/${app}?_subdomain=queue`), body)).json()) as { request_id: string }).request_id;
    expect(await id("video", { prompt: "a cat" })).toBe("mock-fal-5");
    expect(await id("animate", { image_url: IMAGE })).toBe(`mock-fal-${IMAGE.length}`);
    expect(await id("separate", { audio_url: WAV })).toBe(`mock-fal-${WAV.length}`);
  });
});

describe("fal's checks", () => {
  it.each([
    ["flux", {}, "prompt"],
    ["flux-lora", { prompt: "a cat" }, "loras"],
    ["flux-lora", { prompt: "a cat", loras: [{ path: "file:///x", scale: 1 }] }, "loras"],
    ["lora", { prompt: "a cat", loras: LORAS }, "model_name"],
    ["flux", { prompt: "a cat", loras: [{ path: LORAS[0]?.path }] }, "loras"],
    ["edit", { prompt: "blue" }, "image_url"],
    ["edit", { image_url: IMAGE, image_urls: IMAGE }, "image_urls"],
    ["flux-2", { image_urls: [IMAGE] }, "prompt"],
    ["ltx", { prompt: "waves", image_url: "nope" }, "image_url"],
    ["animate", { prompt: "a cat" }, "image_url"],
    ["music", { text: "rain" }, "prompt"],
    ["tts", { prompt: "hello" }, "text"],
    ["separate", { audio_url: `data:audio/wav;base64,${btoa("RIFF")}` }, "audio_url"],
    ["birefnet", {}, "image_url"],
    ["whisper", { audio_url: "https://x" }, "audio_url"],
  ])("%s %j: 422 naming %s", async (app, body, field) => {
    const res = await postJson(fal(`o/${app}?_subdomain=queue`), body);
    expect(res.status).toBe(422);
    const detail = ((await res.json()) as { detail: { loc: string[] }[] }).detail;
    expect(detail.map((d) => d.loc)).toContainEqual(["body", field]);
  });

  it("an app it does not serve: 404, on the POST and on the queue's GETs", async () => {
    const res = await postJson(fal("o/nothing?_subdomain=queue"), { prompt: "x" });
    expect([res.status, await res.json()]).toEqual([404, { detail: "Application 'nothing' not found" }]);
    expect((await fetch(fal("o/nothing/requests/mock-fal-1/status"))).status).toBe(404);
    expect((await fetch(fal("o/nothing/requests/mock-fal-1"))).status).toBe(404);
  });

  it("the proxy's faults apply to the whole provider id, variant included", async () => {
    hub().inject({ type: "serverError", status: 502 }, { model: "o/flux-2/edit", times: 1 });
    expect((await postJson(fal("o/flux-2/edit?_subdomain=queue"), { prompt: "x" })).status).toBe(502);
    expect((await postJson(fal("o/flux-2?_subdomain=queue"), { prompt: "x" })).status).toBe(200);
    expect((await postJson(fal("o/flux-2/edit?_subdomain=queue"), { prompt: "x" })).status).toBe(200);
  });
});

describe("the fal mappings", () => {
  it("include LoRA adapters of a base model, with their weights' path", async () => {
    expect(DEFAULT_PROVIDER_MAPPINGS["hfkit/lora-flux"]).toEqual({
      "fal-ai": {
        providerId: "hfkit-fal/flux-lora",
        task: "text-to-image",
        status: "live",
        adapter: "lora",
        adapterWeightsPath: "weights/lora.safetensors",
      },
    });
    const info = await (
      await fetch(`${hub().url}/api/models/hfkit/lora-sdxl?expand[]=inferenceProviderMapping`)
    ).json();
    expect(info).toMatchObject({
      inferenceProviderMapping: [{ provider: "fal-ai", providerId: "fal-ai/lora", adapter: "lora" }],
    });
  });

  it.each([
    "audio-to-audio",
    "image-segmentation",
    "image-text-to-image",
    "image-text-to-video",
    "image-to-image",
    "image-to-video",
    "text-to-audio",
    "text-to-speech",
    "text-to-video",
  ])("map hfkit/%s-fal to a fal app for its task", (task) => {
    expect(DEFAULT_PROVIDER_MAPPINGS[`hfkit/${task}-fal`]?.["fal-ai"]).toMatchObject({
      task,
      status: "live",
      providerId: expect.stringMatching(/^hfkit-fal\//),
    });
  });
});
