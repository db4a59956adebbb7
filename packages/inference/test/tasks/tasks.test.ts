/**
 * Every task over loopback HTTP against the mock hub: the happy path, an input error (nothing sent),
 * and the typed errors of a 4xx, a 5xx and a 503 load (waited out, then answered).
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { InferenceClient, InferenceClientInputError, InputError, NotFoundError, ServerError } from "../../src/index";
import { CASES, PNG_BYTES, type TaskCase, UNSUPPORTED } from "./cases";

let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub({
    models: Object.fromEntries(
      CASES.flatMap((c) => ["ok", "bad", "e5", "load", "ep"].map((k) => [`${k}/${c.task}`, { task: c.task }])),
    ),
  });
});
afterAll(() => hub.close());

type Method = (args: Record<string, unknown>, options?: Record<string, unknown>) => Promise<unknown>;
const call = (client: InferenceClient, c: TaskCase, args: Record<string, unknown>): Promise<unknown> =>
  (client as unknown as Record<string, Method>)[c.name]!(args);
const seen = (model: string) => hub.requests.filter((r) => r.path.startsWith(`/models/${model}`));
const client = (options: Record<string, unknown> = {}) =>
  new InferenceClient("hf_test", { baseUrl: hub.url, logger: { warn() {} }, ...options });

async function expectAnswer(c: TaskCase, out: unknown): Promise<void> {
  if (typeof c.expected === "string") {
    expect(out).toBeInstanceOf(Blob);
    expect((out as Blob).type).toBe(c.expected);
    expect((await (out as Blob).arrayBuffer()).byteLength).toBeGreaterThan(0);
  } else expect(out).toEqual(c.expected);
}

describe.concurrent.each(CASES)("$name", (c) => {
  it("answers the pipeline's answer, from the hf-inference route", async () => {
    const model = `ok/${c.task}`;
    await expectAnswer(c, await call(client(), c, { model, ...c.args }));
    const [request] = seen(model);
    expect(request?.path).toBe(`/models/${model}${c.suffix ?? ""}`);
    expect(request?.headers.authorization).toBe("Bearer hf_test");
    if (c.binaryBody) expect(request?.headers["content-type"]).toMatch(/^(audio|image)\//);
    else expect(request?.headers["content-type"]).toBe("application/json");
  });

  it("answers the same from a dedicated endpoint (posted to the URL as is)", async () => {
    const endpointUrl = `${hub.url}/endpoints/ep/${c.task}`;
    await expectAnswer(c, await call(new InferenceClient("hf_test", { endpointUrl }), c, { ...c.args }));
    expect(hub.requests.filter((r) => r.path === `/endpoints/ep/${c.task}`)).toHaveLength(1);
  });

  it("refuses bad input with an InputError naming the field, before any request", async () => {
    const model = `bad/${c.task}`;
    const error = await call(client(), c, { model, ...c.bad }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InferenceClientInputError);
    expect((error as InputError).field).toBe(c.badField);
    expect(seen(model)).toHaveLength(0);
  });

  it("a 4xx is its typed error, not retried", async () => {
    const model = `acme/does-not-exist-${c.task}`;
    const error = await call(client(), c, { model, ...c.args }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(NotFoundError);
    expect((error as NotFoundError).httpResponse.status).toBe(404);
    expect((error as NotFoundError).requestId).toMatch(/^mock-/);
    expect(seen(model)).toHaveLength(1);
  });

  it("a 5xx is retried up to maxRetries, then a ServerError", async () => {
    const model = `e5/${c.task}`;
    hub.inject({ type: "serverError", status: 502 }, { model, times: 5 });
    const error = await call(client({ maxRetries: 1 }), c, { model, ...c.args }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect((error as ServerError).status).toBe(502);
    expect(seen(model)).toHaveLength(2);
  });

  it("a 503 load is waited out (x-wait-for-model on the retry), then answered", async () => {
    const model = `load/${c.task}`;
    hub.inject({ type: "loading", estimatedTime: 0.01, durationMs: 60_000 }, { model, times: 1 });
    const waits: string[] = [];
    await expectAnswer(
      c,
      await call(client({ onRetry: (e: { reason: string }) => waits.push(e.reason) }), c, { model, ...c.args }),
    );
    expect(waits).toEqual(["loading"]);
    const requests = seen(model);
    expect(requests).toHaveLength(2);
    expect(requests[1]?.headers["x-wait-for-model"]).toBe("true");
  });
});

it.each(UNSUPPORTED)("%s: an InputError saying who serves it, nothing sent", async (name) => {
  const before = hub.requests.length;
  const c = { name, task: "x" } as TaskCase;
  const error = await call(client(), c, { model: "ok/text-to-image", inputs: "a cat" }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  expect(String((error as Error).message)).toMatch(
    /not supported on provider .hf-inference.: no hf-inference model serves it.*fal-ai/,
  );
  expect(hub.requests.length).toBe(before);
});

it("another provider is an InputError naming what is served; nothing sent", async () => {
  const before = hub.requests.length;
  const error = await new InferenceClient("hf_test")
    .fillMask({ model: "ok/fill-mask", provider: "together", inputs: "a [MASK]" })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  expect((error as InputError).message).toMatch(/not supported for provider 'together'.*hf-inference.*endpointUrl/);
  expect(hub.requests.length).toBe(before);
});

it("textToImage: outputType dataUrl and json; url refused before any request", async () => {
  const args = { model: "ok/text-to-image", inputs: "a cat" };
  const url = await client().textToImage(args, { outputType: "dataUrl" });
  expect(url).toBe(`data:image/png;base64,${btoa(String.fromCharCode(...PNG_BYTES))}`);
  expect(await client().textToImage(args, { outputType: "json" })).toEqual({ output: url });
  const before = hub.requests.length;
  await expect(client().textToImage(args, { outputType: "url" })).rejects.toBeInstanceOf(InputError);
  expect(hub.requests.length).toBe(before);
});
