/**
 * The same call of every task through both clients, against the mock hub (`@huggingface/inference`
 * 4.13.30 pointed at it by `endpointUrl`): the answers must be equal in shape and values. The only
 * exceptions are the documented differences listed here.
 */
import * as hf from "@huggingface/inference";
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, expect, it } from "vitest";
import * as ours from "../../src/index";
import { CASES, UNSUPPORTED } from "./cases";

let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());

type Task = (args: Record<string, unknown>, options?: Record<string, unknown>) => Promise<unknown>;
const fn = (lib: object, name: string): Task => (lib as Record<string, Task>)[name]!;

/** A Blob as its type and bytes, so two answers compare by value. */
async function plain(value: unknown): Promise<unknown> {
  return value instanceof Blob ? { type: value.type, bytes: [...new Uint8Array(await value.arrayBuffer())] } : value;
}

it.each(CASES)("$name answers the same through both clients", async (c) => {
  const endpointUrl = `${hub.url}/models/hfkit/${c.task}${c.suffix ?? ""}`;
  const args = { accessToken: "hf_test", endpointUrl, ...c.args };
  const [theirs, mine] = await Promise.all([fn(hf, c.name)(args), fn(ours, c.name)(args)]);
  expect(await plain(mine)).toEqual(await plain(theirs));
  if (typeof c.expected !== "string") expect(mine).toEqual(c.expected);
});

it("textToImage's dataUrl: ours is labelled with the answer's media type, 4.13's always image/jpeg (documented)", async () => {
  const args = { accessToken: "hf_test", endpointUrl: `${hub.url}/models/hfkit/text-to-image`, inputs: "a cat" };
  const theirs = (await hf.textToImage(args, { outputType: "dataUrl" })) as string;
  const mine = await ours.textToImage(args, { outputType: "dataUrl" });
  expect(theirs.replace(/^data:image\/jpeg;/, "data:image/png;")).toBe(mine);
  expect(theirs).not.toBe(mine);
});

it.each(UNSUPPORTED)("%s is refused by both clients before any request", async (name) => {
  const before = hub.requests.length;
  const args = {
    accessToken: "hf_test",
    endpointUrl: `${hub.url}/models/hfkit/text-to-image`,
    inputs: new Blob(["x"]),
    parameters: { prompt: "a cat" },
  };
  await expect(fn(hf, name)(args)).rejects.toBeInstanceOf(hf.InferenceClientInputError);
  await expect(fn(ours, name)(args)).rejects.toBeInstanceOf(ours.InferenceClientInputError);
  expect(hub.requests.length).toBe(before);
});

it("every method of 4.13's InferenceClient is one of ours", () => {
  const theirs = new hf.InferenceClient() as unknown as Record<string, unknown>;
  const mine = new ours.InferenceClient() as unknown as Record<string, unknown>;
  const methods = Object.keys(hf).filter((name) => typeof theirs[name] === "function");
  for (const name of methods) expect(typeof mine[name], name).toBe("function");
  expect(methods.length).toBe(36);
});
