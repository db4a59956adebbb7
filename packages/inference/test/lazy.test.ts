/**
 * `tasks/lazy.ts` (each task, text generation and the Responses API loaded on first use: what the package exports)
 * against the task modules themselves (`tasks/all.ts`): the same exports, of the same types, giving the same answers.
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as eager from "../src/tasks/all";
import * as lazy from "../src/tasks/lazy";
import { once } from "../src/tasks/once";

// Type-checked by `pnpm typecheck`: the lazy module must be usable wherever the eager one is.
const sameTypes: typeof eager = lazy;

let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());
const options = () => ({ logger: { warn() {} } });

it("has the same exports as the task modules, each a function", () => {
  expect(Object.keys(lazy).sort()).toEqual(Object.keys(eager).sort());
  expect(Object.keys(lazy).length).toBeGreaterThan(30);
  for (const name of Object.keys(lazy)) expect(typeof (sameTypes as Record<string, unknown>)[name]).toBe("function");
});

it("a task through the lazy module answers what the eager one does", async () => {
  const args = { accessToken: "hf_test", endpointUrl: `${hub.url}/models/hfkit/feature-extraction`, inputs: "Paris" };
  const [mine, theirs] = await Promise.all([lazy.featureExtraction(args), eager.featureExtraction(args)]);
  expect(mine).toEqual(theirs);
  expect(Array.isArray(mine)).toBe(true);
});

it("bad input is the same InputError through both, nothing sent", async () => {
  const before = hub.requests.length;
  const args = {
    accessToken: "hf_test",
    endpointUrl: `${hub.url}/models/hfkit/fill-mask`,
    inputs: 42 as unknown as string,
  };
  const [mine, theirs] = await Promise.all([
    lazy.fillMask(args, options()).catch((e: unknown) => e),
    eager.fillMask(args, options()).catch((e: unknown) => e),
  ]);
  expect((mine as Error).name).toBe("InputError");
  expect((mine as Error).message).toBe((theirs as Error).message);
  expect(hub.requests.length).toBe(before);
});

it("the Responses API and streamingRequest through the lazy module stream what the eager one does", async () => {
  const endpointUrl = `${hub.url}/models/hfkit/tgi-3.2`;
  const args = { accessToken: "hf_test", endpointUrl, model: "tgi", input: "Hi", max_output_tokens: 20 };
  const types = async (stream: AsyncIterable<{ type: string }>) => {
    const seen: string[] = [];
    for await (const event of stream) seen.push(event.type);
    return seen;
  };
  const [mine, theirs] = await Promise.all([types(lazy.responsesStream(args)), types(eager.responsesStream(args))]);
  expect(mine).toEqual(theirs);
  expect(mine.at(-1)).toBe("response.completed");
  const text = async (lib: typeof eager) => (await lib.responses(args)).output_text;
  expect(await text(lazy)).toBe(await text(eager));
  const events = async (lib: typeof eager) => {
    const got: unknown[] = [];
    for await (const e of lib.streamingRequest(
      { accessToken: "hf_test", endpointUrl, inputs: "Hi", parameters: { max_new_tokens: 5 } },
      { logger: { warn() {} } },
    ))
      got.push(e);
    return got;
  };
  const streamed = await events(lazy);
  expect(streamed.length).toBeGreaterThan(1);
  expect(streamed).toEqual(await events(eager));
});

it("once: concurrent calls share one load; a failed load is tried again, a good one is kept", async () => {
  let loads = 0;
  const load = once(async () => {
    loads++;
    if (loads === 1) throw new Error("chunk missing");
    return { loads };
  });
  await expect(Promise.all([load(), load()])).rejects.toThrow("chunk missing");
  expect(loads).toBe(1);
  const [a, b] = await Promise.all([load(), load()]);
  expect(a).toBe(b);
  expect(await load()).toEqual({ loads: 2 });
  expect(loads).toBe(2);
});
