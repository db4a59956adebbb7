/**
 * The deprecated `request` and `streamingRequest`, over loopback HTTP against the mock hub and beside
 * `@huggingface/inference` 4.13.30 pointed at the same endpoints: the same answers, binary bodies sent as
 * they are, the deprecation warned once, bad input before any request, and typed errors.
 */
import * as hf from "@huggingface/inference";
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, expect, it, vi } from "vitest";
import * as ours from "../../src/index";
import { VERSION } from "../../src/version";

let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub({ models: { "e5/fill-mask": { task: "fill-mask" } } });
});
afterAll(() => hub.close());
beforeEach(() => hub.reset());
const quiet = { logger: { warn() {} } };

it("request: a JSON body, the same answer as 4.13's", async () => {
  const args = {
    accessToken: "hf_test",
    endpointUrl: `${hub.url}/models/hfkit/fill-mask`,
    inputs: "Paris is the [MASK] of France.",
  };
  const [mine, theirs] = await Promise.all([ours.request(args, quiet), hf.request(args, { task: "fill-mask" })]);
  expect(mine).toEqual(theirs);
  expect(Array.isArray(mine)).toBe(true);
  const [a, b] = hub.requests;
  expect(a?.body).toEqual(b?.body);
  expect(a?.body).toEqual({ inputs: "Paris is the [MASK] of France." });
});

it("request: a binary `data` is the body as it is, with its own content type; the answer a Blob where the server sends bytes", async () => {
  const data = new Blob([new Uint8Array([82, 73, 70, 70, 1, 2, 3])], { type: "audio/wav" });
  const answer = await ours.request(
    { accessToken: "hf_test", endpointUrl: `${hub.url}/models/hfkit/audio-classification`, data },
    quiet,
  );
  expect(answer).toEqual(
    expect.arrayContaining([expect.objectContaining({ label: expect.any(String), score: expect.any(Number) })]),
  );
  expect(hub.requests[0]?.headers["content-type"]).toBe("audio/wav");
  const speech = await ours.request<Blob>(
    { accessToken: "hf_test", endpointUrl: `${hub.url}/models/hfkit/text-to-speech`, inputs: "Hello" },
    quiet,
  );
  expect(speech).toBeInstanceOf(Blob);
  expect(speech.type).toBe("audio/wav");
});

it("request: the deprecation is warned once per process, in 4.13's words", async () => {
  // A fresh copy of the module and of the process's memory of warnings given (core/shared.ts): the calls above have warned already.
  delete (globalThis as Record<symbol, unknown>)[Symbol.for(`hfkit@${VERSION}:logger`)];
  vi.resetModules();
  const fresh = await import("../../src/tasks/request");
  const warned: string[] = [];
  const logger = { warn: (m: string) => void warned.push(m), debug() {}, info() {}, error() {}, log() {} };
  const args = { accessToken: "hf_test", endpointUrl: `${hub.url}/models/hfkit/fill-mask`, inputs: "a [MASK]" };
  await fresh.request(args, { logger });
  await fresh.request(args, { logger });
  expect(warned).toEqual([
    "The request method is deprecated and will be removed in a future version of huggingface.js. Use specific task functions instead.",
  ]);
});

it("request: bad input is an InputError before any request; a 5xx is retried, then a ServerError with its status", async () => {
  const bad = await ours
    .request({ accessToken: "hf_test", endpointUrl: "not a url", inputs: "x" }, quiet)
    .catch((e: unknown) => e);
  expect(bad).toBeInstanceOf(ours.InputError);
  expect(bad).toMatchObject({ field: "endpointUrl" });
  expect(hub.requests).toHaveLength(0);
  hub.inject({ type: "serverError", status: 502 }, { model: "e5/fill-mask", times: 5 });
  const error = await ours
    .request(
      { accessToken: "hf_test", model: "e5/fill-mask", inputs: "a [MASK]" },
      { ...quiet, baseUrl: hub.url, maxRetries: 1 },
    )
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(ours.ServerError);
  expect(error).toMatchObject({ status: 502 });
  expect(hub.requests.filter((r) => r.path.startsWith("/models/e5/fill-mask"))).toHaveLength(2);
});

it("streamingRequest: TGI's event stream, each event's data parsed, the same events as 4.13's", async () => {
  const args = {
    accessToken: "hf_test",
    endpointUrl: `${hub.url}/models/hfkit/tgi-3.2`,
    inputs: "Hi",
    parameters: { max_new_tokens: 5 },
  };
  const read = async (stream: AsyncIterable<unknown>) => {
    const got: unknown[] = [];
    for await (const event of stream) got.push(event);
    return got;
  };
  const mine = await read(ours.streamingRequest(args, quiet));
  const theirs = await read(hf.streamingRequest(args));
  expect(mine.length).toBeGreaterThan(1);
  expect(mine).toEqual(theirs);
  expect(hub.requests[0]?.body).toMatchObject({ inputs: "Hi", stream: true });
});

it("streamingRequest: bad input is an InputError from the first next(), nothing sent", async () => {
  const stream = ours.streamingRequest(
    { accessToken: "hf_test", endpointUrl: "ftp://example.com", inputs: "Hi" },
    quiet,
  );
  await expect(stream.next()).rejects.toBeInstanceOf(ours.InputError);
  expect(hub.requests).toHaveLength(0);
});
