/**
 * The policy over a call's candidates through real HTTP on loopback: latency sorting picks the faster provider
 * after warm-up and still explores; throughput and price sorting; the price cap skips; weights split 1,000 calls
 * within a stated tolerance (seeded randomness); bad routing options are InputErrors before any request.
 */
import { afterAll, beforeAll, beforeEach, expect, it } from "vitest";
import { type FailoverEvent, InputError, type Options } from "../../src/index";
import { type FakeRouter, fakeRouter, MODEL, QUESTION, seeded } from "./router";

let router: FakeRouter;
beforeAll(async () => (router = await fakeRouter()));
afterAll(() => router.raw.close());
beforeEach(() => router.reset());

const target = (p: string) => `${MODEL}:${p}`;

const served = async (options: Options, provider: unknown = ["a", "b"]) =>
  (await router.client(options).chatCompletion({ model: MODEL, messages: QUESTION, provider: provider as string[] }))
    .served?.provider;

it("latency: after each candidate is measured once, the faster is tried first; explore still sends some calls to the slower", async () => {
  router.behaviours = { [target("a")]: { advance: 900 }, [target("b")]: { advance: 100 } };
  const random = seeded(7);
  const first: string[] = [];
  for (let i = 0; i < 100; i++)
    first.push((await served({ routing: { sort: "latency", explore: 0.1, random } })) ?? "");
  expect(new Set(first.slice(0, 2))).toEqual(new Set(["a", "b"])); // each measured once: the unmeasured go first
  const later = first.slice(2);
  const slow = later.filter((p) => p === "a").length;
  expect(later.filter((p) => p === "b").length).toBeGreaterThan(80);
  expect(slow).toBeGreaterThan(0); // explored: a is measured again
  expect(slow).toBeLessThan(20);
});

it("latency without exploration: every call after warm-up goes to the faster", async () => {
  router.behaviours = { [target("a")]: { advance: 900 }, [target("b")]: { advance: 100 } };
  const out: string[] = [];
  for (let i = 0; i < 10; i++) out.push((await served({ routing: { sort: "latency", explore: 0 } })) ?? "");
  expect(out.slice(0, 1)).toEqual(["a"]);
  expect(out.slice(2)).toEqual(Array(8).fill("b"));
});

it("throughput: the provider with more tokens per second is tried first", async () => {
  router.behaviours = { [target("a")]: { advance: 2000 }, [target("b")]: { advance: 200 } };
  const out: string[] = [];
  for (let i = 0; i < 6; i++) out.push((await served({ routing: { sort: "throughput", explore: 0 } })) ?? "");
  expect(out.slice(2)).toEqual(["b", "b", "b", "b"]);
});

const priced = (a: number, b: number) => ({
  object: "list",
  data: [
    {
      id: MODEL,
      providers: [
        { provider: "a", status: "live", pricing: { input: a, output: a } },
        { provider: "b", status: "live", pricing: { input: b, output: b } },
      ],
    },
  ],
});

it("price: the cheaper provider in the catalog is tried first", async () => {
  router.catalog = priced(5, 1);
  router.behaviours = { [target("a")]: "ok", [target("b")]: "ok" };
  expect(await served({ routing: { sort: "price", explore: 0 } })).toBe("b");
  expect(router.sent()).toEqual([target("b")]);
});

it("maxPrice skips a provider priced above it, with its own reason, without a request", async () => {
  router.catalog = priced(5, 1);
  router.behaviours = { [target("a")]: "ok", [target("b")]: "ok" };
  const moves: FailoverEvent[] = [];
  expect(await served({ routing: { maxPrice: 2 }, onFailover: (e) => moves.push(e) })).toBe("b");
  expect(router.sent()).toEqual([target("b")]);
  expect(moves).toEqual([{ from: target("a"), to: target("b"), reason: "price" }]);
});

it("weights split 1,000 calls 3:1 within ±4 points (seeded)", async () => {
  router.behaviours = { [target("a")]: "ok", [target("b")]: "ok" };
  const random = seeded(42);
  const counts: Record<string, number> = { a: 0, b: 0 };
  const weighted = [
    { name: "a", weight: 3 },
    { name: "b", weight: 1 },
  ];
  for (let i = 0; i < 1000; i++) {
    const p = await served({ routing: { random }, health: false }, weighted);
    counts[p ?? ""] = (counts[p ?? ""] ?? 0) + 1;
  }
  expect(counts.a! / 1000).toBeGreaterThan(0.71);
  expect(counts.a! / 1000).toBeLessThan(0.79);
  expect(counts.a! + counts.b!).toBe(1000);
});

it("a weighted list still fails over: the provider not drawn first is tried next", async () => {
  router.behaviours = { [target("a")]: { status: 500 }, [target("b")]: "ok" };
  const weighted = [{ name: "a", weight: 1000 }, { name: "b" }];
  expect(await served({ routing: { random: () => 0 } }, weighted)).toBe("b");
  expect(router.sent()).toEqual([target("a"), target("b")]);
});

it.each([
  [{ routing: { sort: "fastest" } }, "routing.sort"],
  [{ routing: { maxPrice: "1" } }, "routing.maxPrice"],
  [{ routing: { maxPrice: Number.NaN } }, "routing.maxPrice"],
  [{ routing: { explore: 2 } }, "routing.explore"],
  [{ routing: 3 }, "routing"],
])("%j is an InputError naming %s, before any request", async (options, field) => {
  const error = await served(options as Options).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  expect((error as InputError).field).toBe(field);
  expect(router.sent()).toEqual([]);
});

it.each([0, -1, Number.NaN, Infinity, "2"])(
  "a weight of %s is an InputError naming it, before any request",
  async (weight) => {
    const error = await served({}, [{ name: "a", weight }, "b"]).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe("provider[0].weight");
    expect((error as Error).message).toContain("a positive number");
    expect(router.sent()).toEqual([]);
  },
);
