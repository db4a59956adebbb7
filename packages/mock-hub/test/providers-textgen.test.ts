/** The OpenAI-compatible providers' routes (completions, chat, embeddings, deepinfra's audio and images) and novita's async task APIs. */
import { describe, expect, it } from "vitest";
import { DEFAULT_PROVIDER_MAPPINGS } from "../src/index.js";
import { postJson, useHub } from "./helpers.js";

const hub = useHub();
const at = (path: string) => `${hub().url}${path}`;

describe("the default mappings of the hfkit ids", () => {
  it("map hfkit/text-generation on every completions provider, and each other pair's model", () => {
    const generation = DEFAULT_PROVIDER_MAPPINGS["hfkit/text-generation"] ?? {};
    expect(Object.keys(generation).sort()).toEqual([
      "deepinfra",
      "featherless-ai",
      "groq",
      "novita",
      "ovhcloud",
      "scaleway",
      "together",
    ]);
    expect(Object.values(generation).every((m) => m.task === "text-generation" && m.status === "live")).toBe(true);
    expect(Object.keys(DEFAULT_PROVIDER_MAPPINGS["hfkit/embeddings"] ?? {}).sort()).toEqual([
      "deepinfra",
      "scaleway",
      "together",
    ]);
    expect(DEFAULT_PROVIDER_MAPPINGS["hfkit/image-text-to-video"]?.novita).toEqual({
      providerId: "MiniMax-H3",
      task: "image-text-to-video",
      status: "live",
    });
    // The mappings others rely on are kept: the module's entries are added after them.
    expect(Object.keys(DEFAULT_PROVIDER_MAPPINGS["hfkit/text-to-image"] ?? {})).toEqual([
      "together",
      "replicate",
      "hf-inference",
      "deepinfra",
    ]);
  });
});

describe("the completions routes", () => {
  it.each([
    "/featherless-ai/v1/completions",
    "/ovhcloud/v1/completions",
    "/scaleway/v1/completions",
    "/together/v1/completions",
    "/deepinfra/v1/openai/completions",
  ])("%s continues the prompt deterministically; 400 in OpenAI's shape without a prompt or a model", async (path) => {
    const res = await postJson(at(path), { model: "p/llama", prompt: "Once upon a time", max_tokens: 5 });
    expect(res.status).toBe(200);
    const body = (await res.json()) as {
      model: string;
      choices: { text: string; finish_reason: string; seed?: number }[];
    };
    expect(body.model).toBe("p/llama");
    expect(body.choices[0]).toMatchObject({
      index: 0,
      text: " and so on (4 words, 16 characters).",
      finish_reason: "length",
    });
    expect(body.choices[0]?.seed).toBe(path.startsWith("/together/") ? 42 : undefined);
    const noPrompt = await postJson(at(path), { model: "p/llama", inputs: "x" });
    expect(noPrompt.status).toBe(400);
    expect(await noPrompt.json()).toEqual({
      error: { message: "prompt is required", type: "invalid_request_error", param: "prompt", code: null },
    });
    expect((await postJson(at(path), { prompt: "x" })).status).toBe(400);
  });

  it("answers the proxy's faults for the body's model", async () => {
    hub().inject({ type: "serverError", status: 502 }, { model: "p/llama", times: 1 });
    expect((await postJson(at("/ovhcloud/v1/completions"), { model: "p/llama", prompt: "x" })).status).toBe(502);
    expect((await postJson(at("/ovhcloud/v1/completions"), { model: "p/llama", prompt: "x" })).status).toBe(200);
  });
});

describe("the chat routes of groq and novita", () => {
  it.each(["/groq/openai/v1/chat/completions", "/novita/v3/openai/chat/completions"])(
    "%s replies to the last message; 400 without messages",
    async (path) => {
      const res = await postJson(at(path), {
        model: "p/llama",
        messages: [{ role: "user", content: "Once upon a time" }],
      });
      const body = (await res.json()) as { object: string; choices: { message: { role: string; content: string } }[] };
      expect(body.object).toBe("chat.completion");
      expect(body.choices[0]?.message).toEqual({ role: "assistant", content: "and so on (4 words, 16 characters)." });
      const refused = await postJson(at(path), { model: "p/llama", inputs: "Once upon a time", parameters: {} });
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ error: { param: "messages", type: "invalid_request_error" } });
    },
  );
});

describe("the embeddings routes", () => {
  it.each(["/scaleway/v1/embeddings", "/together/v1/embeddings", "/deepinfra/v1/openai/embeddings"])(
    "%s answers one vector per input; 400 for another input",
    async (path) => {
      const res = await postJson(at(path), { model: "p/bge", input: ["a cat", "hello big world"] });
      const body = (await res.json()) as { data: { index: number; embedding: number[] }[] };
      expect(body.data).toEqual([
        { object: "embedding", index: 0, embedding: [0.05, 0.2, 0.097] },
        { object: "embedding", index: 1, embedding: [0.15, 0.3, 0.104] },
      ]);
      const one = (await (await postJson(at(path), { model: "p/bge", input: "a cat" })).json()) as typeof body;
      expect(one.data).toHaveLength(1);
      expect((await postJson(at(path), { model: "p/bge", input: 3 })).status).toBe(400);
    },
  );
});

describe("deepinfra's audio and images", () => {
  it("transcribes a multipart upload: its size, name and type; 400 without a file", async () => {
    const form = new FormData();
    form.append("file", new Blob([new Uint8Array([1, 2, 3, 4])], { type: "audio/wav" }), "audio.wav");
    form.append("model", "d/whisper");
    const res = await fetch(at("/deepinfra/v1/openai/audio/transcriptions"), { method: "POST", body: form });
    expect(await res.json()).toEqual({
      text: "4 bytes of audio.wav (audio/wav)",
      language: "en",
      duration: 2,
      segments: [
        { id: 0, start: 0, end: 1.5, text: "4 bytes" },
        { id: 1, start: 1.5, end: 2, text: "of audio.wav (audio/wav)" },
      ],
    });
    const noFile = new FormData();
    noFile.append("model", "d/whisper");
    expect(
      (await fetch(at("/deepinfra/v1/openai/audio/transcriptions"), { method: "POST", body: noFile })).status,
    ).toBe(400);
    expect((await postJson(at("/deepinfra/v1/openai/audio/transcriptions"), { model: "d/whisper" })).status).toBe(400);
  });

  it("generates an image as b64_json or as a URL it serves; 400 without a prompt", async () => {
    const b64 = (await (
      await postJson(at("/deepinfra/v1/openai/images/generations"), {
        model: "d/flux",
        prompt: "a cat",
        response_format: "b64_json",
      })
    ).json()) as { data: { b64_json?: string; url?: string }[] };
    expect(b64.data[0]?.b64_json).toMatch(/^iVBORw0KGgo/);
    const url = (await (
      await postJson(at("/deepinfra/v1/openai/images/generations"), {
        model: "d/flux",
        prompt: "a cat",
        response_format: "url",
      })
    ).json()) as typeof b64;
    expect(url.data[0]?.url).toBe(`${hub().url}/files/d%2Fflux.png`);
    expect((await fetch(url.data[0]!.url!)).headers.get("content-type")).toBe("image/png");
    expect((await postJson(at("/deepinfra/v1/openai/images/generations"), { model: "d/flux" })).status).toBe(400);
  });

  it("says a text as mp3 (wav when asked); 400 without an input", async () => {
    const mp3 = await postJson(at("/deepinfra/v1/openai/audio/speech"), { model: "d/kokoro", input: "Hello" });
    expect(mp3.headers.get("content-type")).toBe("audio/mpeg");
    expect([...new Uint8Array(await mp3.arrayBuffer())].slice(0, 3)).toEqual([0x49, 0x44, 0x33]);
    const wav = await postJson(at("/deepinfra/v1/openai/audio/speech"), {
      model: "d/kokoro",
      input: "Hello",
      response_format: "wav",
    });
    expect(wav.headers.get("content-type")).toBe("audio/wav");
    expect((await postJson(at("/deepinfra/v1/openai/audio/speech"), { model: "d/kokoro" })).status).toBe(400);
  });
});

describe("novita's async task APIs", () => {
  it("queues a text-to-video task, answers it done, and serves its video", async () => {
    const res = await postJson(at("/novita/v3/async/n/wan-t2v"), { prompt: "a cat", steps: 4 });
    const { task_id } = (await res.json()) as { task_id: string };
    expect(task_id).toBe("mock-novita-t2v-5");
    const result = (await (await fetch(at(`/novita/v3/async/task-result?task_id=${task_id}`))).json()) as {
      task: { status: string };
      videos: { video_url: string }[];
    };
    expect(result.task.status).toBe("TASK_STATUS_SUCCEED");
    const video = await fetch(result.videos[0]!.video_url);
    expect(video.headers.get("content-type")).toBe("video/mp4");
  });

  it("a prompt with 'fail' makes a failed task; 400 without a prompt or a task id", async () => {
    const { task_id } = (await (
      await postJson(at("/novita/v3/async/n/wan-t2v"), { prompt: "please fail" })
    ).json()) as { task_id: string };
    expect(await (await fetch(at(`/novita/v3/async/task-result?task_id=${task_id}`))).json()).toMatchObject({
      task: { status: "TASK_STATUS_FAILED" },
      videos: [],
    });
    const refused = await postJson(at("/novita/v3/async/n/wan-t2v"), { steps: 4 });
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      code: 400,
      reason: "INVALID_REQUEST_BODY",
      message: "prompt is required",
      metadata: {},
    });
    expect((await fetch(at("/novita/v3/async/task-result"))).status).toBe(400);
  });

  it("MiniMax H3: a video from a prompt and an image (first frame), done at once; its failures; 400 for another model or no text", async () => {
    const content = [
      { type: "text", text: "the cat runs" },
      { type: "image_url", image_url: { url: "data:image/png;base64,iVBORw==" }, role: "first_frame" },
    ];
    const { task_id } = (await (
      await postJson(at("/novita/v3/minimax/v2/video_generation"), { model: "MiniMax-H3", content, ratio: "adaptive" })
    ).json()) as { task_id: string };
    expect(task_id).toBe("mock-novita-h3-i2v-12");
    const done = (await (await fetch(at(`/novita/v3/minimax/v2/query/video_generation/${task_id}`))).json()) as {
      task: { status: string; content: { url: string } };
    };
    expect(done.task).toEqual({ task_id, status: "succeeded", content: { url: `${hub().url}/files/${task_id}.mp4` } });
    const failing = (await (
      await postJson(at("/novita/v3/minimax/v2/video_generation"), {
        model: "MiniMax-H3",
        content: [{ type: "text", text: "fail" }],
      })
    ).json()) as { task_id: string };
    expect(
      await (await fetch(at(`/novita/v3/minimax/v2/query/video_generation/${failing.task_id}`))).json(),
    ).toMatchObject({ task: { status: "failed", error: { message: "mock failure" } } });
    expect((await postJson(at("/novita/v3/minimax/v2/video_generation"), { model: "other", content })).status).toBe(
      400,
    );
    expect(
      (await postJson(at("/novita/v3/minimax/v2/video_generation"), { model: "MiniMax-H3", content: [] })).status,
    ).toBe(400);
    const badImage = [content[0], { type: "image_url", image_url: { url: "file:///x" } }];
    expect(
      (await postJson(at("/novita/v3/minimax/v2/video_generation"), { model: "MiniMax-H3", content: badImage })).status,
    ).toBe(400);
  });
});
