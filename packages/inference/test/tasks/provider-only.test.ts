/**
 * The tasks only third-party providers serve (textToVideo, imageToVideo, imageTextToImage,
 * imageTextToVideo), each on fal-ai through the router against the mock hub: the answer, an input error
 * with nothing sent, a 4xx, a 5xx retried then a ServerError, and a 503 load waited out (then answered).
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { InferenceClient, InputError, NotFoundError, ServerError } from "../../src/index";
import { mappingMemory } from "../../src/targets/providers/mapping";

const PNG = new Blob(
  [
    Uint8Array.from(
      atob("iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mP8z8BQDwAEhQGAhKmMIQAAAABJRU5ErkJggg=="),
      (c) => c.charCodeAt(0),
    ),
  ],
  { type: "image/png" },
);
type Method = "textToVideo" | "imageToVideo" | "imageTextToImage" | "imageTextToVideo";
const CASES: {
  name: Method;
  task: string;
  model: string;
  app: string;
  args: Record<string, unknown>;
  bad: Record<string, unknown>;
  field: string;
  type: string;
}[] = [
  {
    name: "textToVideo",
    task: "text-to-video",
    model: "hfkit/text-to-video-fal",
    app: "hfkit-fal/video",
    args: { inputs: "a cat" },
    bad: { inputs: "" },
    field: "inputs",
    type: "video/mp4",
  },
  {
    name: "imageToVideo",
    task: "image-to-video",
    model: "hfkit/image-to-video-fal",
    app: "hfkit-fal/animate",
    args: { inputs: PNG },
    bad: { inputs: 42 },
    field: "inputs",
    type: "video/mp4",
  },
  {
    name: "imageTextToImage",
    task: "image-text-to-image",
    model: "hfkit/image-text-to-image-fal",
    app: "hfkit-fal/flux-2/edit",
    args: { inputs: PNG, parameters: { prompt: "a hat" } },
    bad: { inputs: 42, parameters: { prompt: "a hat" } },
    field: "inputs",
    type: "image/png",
  },
  {
    name: "imageTextToVideo",
    task: "image-text-to-video",
    model: "hfkit/image-text-to-video-fal",
    app: "hfkit-fal/ltx/image-to-video",
    args: { inputs: PNG, parameters: { prompt: "a hat" } },
    bad: { inputs: 42, parameters: { prompt: "a hat" } },
    field: "inputs",
    type: "video/mp4",
  },
];

let hub: MockHub;
beforeAll(async () => {
  const missing = Object.fromEntries(
    CASES.map((c) => [
      `acme/missing-${c.task}`,
      {
        inferenceProviderMapping: {
          "fal-ai": { providerId: `hfkit-fal/missing-${c.task}`, task: c.task, status: "live" as const },
        },
      },
    ]),
  );
  hub = await startMockHub({ models: missing });
});
afterAll(() => hub.close());
beforeEach(() => {
  hub.reset();
  mappingMemory.clear();
});

const toHub = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
  fetch(String(url).replace(/^https:\/\/(router\.)?huggingface\.co/, hub.url), init);
// The mock hub serves the media it names on loopback, while each call's target is the router: let it through.
const client = (options: Record<string, unknown> = {}) =>
  new InferenceClient("hf_test", {
    hubUrl: hub.url,
    allowPrivateNetwork: true,
    fetch: toHub,
    logger: { warn() {} },
    ...options,
  });
const run = (c: (typeof CASES)[number], args: Record<string, unknown>, options?: Record<string, unknown>) =>
  (client(options)[c.name] as (a: unknown) => Promise<unknown>)({ provider: "fal-ai", model: c.model, ...args });
const submits = (app: string) =>
  hub.requests.filter((r) => r.method === "POST" && r.path.split("?")[0] === `/fal-ai/${app}`);

describe.each(CASES)("$name on fal-ai", (c) => {
  it("answers the provider's media as a Blob", async () => {
    const answer = await run(c, c.args);
    expect(answer).toBeInstanceOf(Blob);
    expect((answer as Blob).type).toBe(c.type);
    expect((answer as Blob).size).toBeGreaterThan(0);
    expect(submits(c.app)).toHaveLength(1);
  });

  it("refuses bad input with an InputError naming the field, before any request", async () => {
    const error = await run(c, c.bad).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe(c.field);
    expect(hub.requests.filter((r) => r.path.startsWith("/fal-ai/"))).toHaveLength(0);
  });

  it("a 4xx (an app fal does not know) is its typed error, not retried", async () => {
    const error = await (client()[c.name] as (a: unknown) => Promise<unknown>)({
      provider: "fal-ai",
      model: `acme/missing-${c.task}`,
      ...c.args,
    }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).status).toBe(404);
    expect(submits(`hfkit-fal/missing-${c.task}`)).toHaveLength(1);
  });

  it("a 502 on the queue's submission is not sent again (the job may have been accepted): a ServerError", async () => {
    hub.inject({ type: "serverError", status: 502 }, { model: c.app, times: 5 });
    const error = await run(c, c.args, { maxRetries: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(502);
    expect(submits(c.app)).toHaveLength(1);
  });

  it("a 503 (nothing accepted) is retried up to maxRetries, then a ServerError", async () => {
    hub.inject({ type: "serverError", status: 503 }, { model: c.app, times: 5 });
    const error = await run(c, c.args, { maxRetries: 1 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(503);
    expect(submits(c.app)).toHaveLength(2);
  });

  it("a 503 load is waited out (x-wait-for-model on the retry), then answered", async () => {
    hub.inject({ type: "loading", estimatedTime: 0.01, durationMs: 60_000 }, { model: c.app, times: 1 });
    const waits: string[] = [];
    const answer = await run(c, c.args, { onRetry: (e: { reason: string }) => waits.push(e.reason) });
    expect(answer).toBeInstanceOf(Blob);
    expect(waits).toEqual(["loading"]);
    const sent = submits(c.app);
    expect(sent).toHaveLength(2);
    expect(sent[1]?.headers["x-wait-for-model"]).toBe("true");
  });
});
