import { describe, expect, it } from "vitest";
import { DEFAULT_PROVIDER_MAPPINGS } from "../src/index.js";
import { postJson, useHub } from "./helpers.js";

const hub = useHub({
  models: {
    "org/custom": {
      inferenceProviderMapping: { together: { providerId: "t/custom", task: "text-to-image", status: "staging" } },
    },
  },
});
const info = (id: string) => fetch(`${hub().url}/api/models/${id}?expand[]=inferenceProviderMapping`);

describe("the Hub's model API", () => {
  it("answers a default mapping for the hfkit ids, in its order", async () => {
    const res = await info("hfkit/text-to-image-auto");
    expect(res.status).toBe(200);
    const body = (await res.json()) as { id: string; inferenceProviderMapping: { provider: string }[] };
    expect(body.id).toBe("hfkit/text-to-image-auto");
    // The Hub's current form: a list, each entry naming its provider.
    expect(body.inferenceProviderMapping.map((entry) => entry.provider)).toEqual(["fal-ai", "together"]);
    const defaults = Object.entries(DEFAULT_PROVIDER_MAPPINGS["hfkit/text-to-image-auto"] ?? {});
    expect(body.inferenceProviderMapping).toEqual(
      defaults.map(([provider, entry]) => ({ provider, hfModelId: "hfkit/text-to-image-auto", ...entry })),
    );
  });

  it("answers a model's configured mapping, [] for a configured model without one and for an unknown model", async () => {
    expect(await (await info("org/custom")).json()).toMatchObject({
      inferenceProviderMapping: [{ provider: "together", providerId: "t/custom", status: "staging" }],
    });
    expect(await (await info("hfkit/tgi-3.2")).json()).toMatchObject({ inferenceProviderMapping: [] });
    // Lenient: chat answers it, so the Hub knows it (strict: the Hub's 404, strict.test.ts).
    expect(await (await info("org/nothing-here")).json()).toMatchObject({
      id: "org/nothing-here",
      inferenceProviderMapping: [],
    });
    const refused = await fetch(`${hub().url}/api/models/hfkit/text-to-image`, {
      headers: { authorization: "Bearer hf_bad" },
    });
    expect(refused.status).toBe(401);
  });
});

describe("together's images API", () => {
  const url = () => `${hub().url}/together/v1/images/generations`;
  it("answers b64_json by default, a URL when asked", async () => {
    const res = await postJson(url(), { model: "t/flux", prompt: "a cat", response_format: "base64" });
    expect(res.status).toBe(200);
    const body = (await res.json()) as { data: { b64_json?: string; url?: string }[] };
    expect(body.data[0]?.b64_json).toMatch(/^iVBORw0KGgo/);
    const asUrl = (await (
      await postJson(url(), { model: "t/flux", prompt: "a cat", response_format: "url" })
    ).json()) as typeof body;
    expect(asUrl.data[0]?.url).toBe(`${hub().url}/files/t%2Fflux.png`);
  });

  it("refuses a body without a prompt, and answers the proxy's faults for the body's model", async () => {
    expect((await postJson(url(), { model: "t/flux" })).status).toBe(400);
    hub().inject({ type: "serverError", status: 502 }, { model: "t/flux", times: 1 });
    expect((await postJson(url(), { model: "t/flux", prompt: "x" })).status).toBe(502);
    expect((await postJson(url(), { model: "t/flux", prompt: "x" })).status).toBe(200);
  });
});

describe("replicate's predictions API", () => {
  it("with Prefer: wait, a succeeded prediction whose output file is served", async () => {
    const res = await postJson(
      `${hub().url}/replicate/v1/models/o/flux/predictions`,
      { input: { prompt: "a cat" } },
      { prefer: "wait" },
    );
    expect(res.status).toBe(200);
    const body = (await res.json()) as { status: string; model: string; output: string[] };
    expect(body).toMatchObject({ status: "succeeded", model: "o/flux" });
    const file = await fetch(body.output[0]!);
    expect(file.headers.get("content-type")).toBe("image/png");
    expect((await file.arrayBuffer()).byteLength).toBeGreaterThan(0);
  });

  it("without it, a prediction just started; a versioned one at /v1/predictions; 422 without a prompt", async () => {
    const started = await postJson(`${hub().url}/replicate/v1/models/o/flux/predictions`, {
      input: { prompt: "a cat" },
    });
    expect(started.status).toBe(201);
    expect(await started.json()).toMatchObject({ status: "starting", output: null });
    const versioned = await postJson(
      `${hub().url}/replicate/v1/predictions`,
      { input: { prompt: "a cat" }, version: "v1" },
      { prefer: "wait" },
    );
    expect(await versioned.json()).toMatchObject({ status: "succeeded", version: "v1" });
    expect(
      (await postJson(`${hub().url}/replicate/v1/models/o/flux/predictions`, { input: {} }, { prefer: "wait" })).status,
    ).toBe(422);
  });
});

describe("fal's speech recognition", () => {
  it("transcribes a data URL deterministically; 422 for anything else", async () => {
    const res = await postJson(`${hub().url}/fal-ai/o/whisper`, {
      audio_url: `data:audio/x-wav;base64,${btoa("RIFF")}`,
    });
    expect(await res.json()).toEqual({
      text: "4 bytes of audio/x-wav",
      chunks: [
        { timestamp: [0, 1.5], text: "4 bytes" },
        { timestamp: [1.5, 2], text: "of audio/x-wav" },
      ],
    });
    expect((await postJson(`${hub().url}/fal-ai/o/whisper`, { audio_url: "https://x" })).status).toBe(422);
  });
});

describe("fal's queue", () => {
  it("queues a prompt, completes it, and answers one image served at its URL", async () => {
    const res = await postJson(`${hub().url}/fal-ai/o/flux?_subdomain=queue`, { prompt: "a cat" });
    const queued = (await res.json()) as { request_id: string; status: string; response_url: string };
    expect(queued).toMatchObject({
      request_id: "mock-fal-5",
      status: "IN_QUEUE",
      response_url: "https://queue.fal.run/o/flux/requests/mock-fal-5",
    });
    const path = new URL(queued.response_url).pathname;
    expect(await (await fetch(`${hub().url}/fal-ai${path}/status`)).json()).toMatchObject({ status: "COMPLETED" });
    const result = (await (await fetch(`${hub().url}/fal-ai${path}`)).json()) as { images: { url: string }[] };
    expect(result.images[0]?.url).toBe(`${hub().url}/files/mock-fal-5.png`);
    expect((await fetch(result.images[0]!.url)).headers.get("content-type")).toBe("image/png");
    expect((await postJson(`${hub().url}/fal-ai/o/flux?_subdomain=queue`, {})).status).toBe(422);
  });
});
