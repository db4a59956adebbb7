/**
 * Health, the order of the candidates and hedged first tokens through the AI SDK provider, against the mock hub as
 * the HF router: `health`, `routing` and `hedge` in the provider's (or a model's) settings, and per call in
 * `providerOptions.hfkit`, passed on to `@hfkit/inference` and checked by it before any request (an
 * `InvalidArgumentError` naming the field). A provider that fails or is slow is made so by the hub's faults, and
 * `hub.requests` says what reached each provider.
 */
import type { HealthEvent, HealthStore, TargetHealth } from "@hfkit/inference";
import { generateText, streamText } from "ai";
import { describe, expect, it } from "vitest";
import { createHfkit, type HfkitProviderSettings, InvalidArgumentError } from "../src/index";
import { QUESTION, settled, TEXT, useHub, within } from "./helpers";

const ctx = useHub();
const MODEL = "hfkit/router-multi";
const TOGETHER = `${MODEL}:together`;
const NOVITA = `${MODEL}:novita`;

/** A health store of the test's own (the `HealthStore` interface), on a clock the test moves. */
function memoryStore(): HealthStore & { clock: { now: number } } {
  const kept = new Map<string, TargetHealth>();
  const clock = { now: 1_000_000 };
  return {
    clock,
    get: (key) => kept.get(key),
    record: (key, health) => void kept.set(key, health),
    snapshot: () => [...kept.values()],
    now: () => clock.now,
  };
}

/** A provider on the hub as the HF router, failing over across together and novita. */
const onRouter = (settings: HfkitProviderSettings = {}) =>
  createHfkit({
    routerUrl: ctx.hub.url,
    accessToken: "hf_ai_sdk_health",
    maxRetries: 0,
    provider: ["together", "novita"],
    ...settings,
  });

/** The providers the chat requests reached, in order. */
const reached = () =>
  ctx.hub.requests.filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions")).map((r) => r.provider);

const served = async (result: { providerMetadata: unknown }) =>
  ((await result.providerMetadata) as { hfkit?: { provider?: string } } | undefined)?.hfkit?.provider;

describe("health from the provider's settings", () => {
  it("three failures open together's breaker: the next generateText and streamText send it nothing", async () => {
    ctx.hub.inject({ type: "serverError", status: 503 }, { model: MODEL, provider: "together" });
    const changes: HealthEvent[] = [];
    const hf = onRouter({ health: { store: memoryStore() }, onHealth: (e) => changes.push(e) });
    for (let i = 0; i < 3; i++) await generateText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0 });
    expect(reached()).toEqual(["together", "novita", "together", "novita", "together", "novita"]);
    expect(changes).toEqual([{ type: "breaker", target: TOGETHER, state: "open", failures: 3, cooldownMs: 30_000 }]);
    const whole = await generateText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0 });
    expect([whole.text, await served(whole)]).toEqual([TEXT, "novita"]);
    const streamed = streamText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0 });
    let text = "";
    for await (const part of streamed.textStream) text += part;
    expect([text, await served(streamed)]).toEqual([TEXT, "novita"]);
    expect(reached().slice(6)).toEqual(["novita", "novita"]);
  });

  it("a threshold and cooldown of its own: one failure opens it; after the cooldown one call probes together", async () => {
    const rule = ctx.hub.inject({ type: "refused" }, { model: MODEL, provider: "together" });
    const store = memoryStore();
    const hf = onRouter({ health: { store, threshold: 1, cooldown: 5_000 } });
    await generateText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0 });
    await generateText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0 });
    expect(reached()).toEqual(["together", "novita", "novita"]);
    rule.remove();
    store.clock.now += 5_000;
    const probe = await generateText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0 });
    expect(await served(probe)).toBe("together");
  });

  it("`health: false` in the settings remembers nothing: together is tried on every call", async () => {
    ctx.hub.inject({ type: "serverError", status: 502 }, { model: MODEL, provider: "together" });
    const hf = onRouter({ health: false });
    for (let i = 0; i < 4; i++) await generateText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0 });
    expect(reached().filter((p) => p === "together")).toHaveLength(4);
  });

  it("a model's settings override the provider's: health off for that model only", async () => {
    ctx.hub.inject({ type: "serverError", status: 502 }, { model: MODEL, provider: "together" });
    const hf = onRouter({ health: { store: memoryStore() } });
    for (let i = 0; i < 4; i++) await generateText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0 });
    expect(reached().filter((p) => p === "together")).toHaveLength(3);
    await generateText({ model: hf(MODEL, { health: false }), prompt: QUESTION, maxRetries: 0 });
    expect(reached().at(-2)).toBe("together");
  });
});

describe("per call, in providerOptions.hfkit", () => {
  it("health: false for one call tries an open target; the next call, without it, skips it again", async () => {
    ctx.hub.inject({ type: "serverError", status: 503 }, { model: MODEL, provider: "together" });
    const hf = onRouter({ health: { store: memoryStore() } });
    for (let i = 0; i < 3; i++) await generateText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0 });
    const off = { hfkit: { health: false } } as const;
    await generateText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0, providerOptions: off });
    expect(reached().slice(6)).toEqual(["together", "novita"]);
    await generateText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0 });
    expect(reached().slice(8)).toEqual(["novita"]);
  });

  it("routing.maxPrice: novita (output $0.8 in the hub's catalog) skipped without a request under 0.7", async () => {
    const hf = onRouter({ provider: ["novita", "together"] });
    const result = await generateText({
      model: hf(MODEL),
      prompt: QUESTION,
      maxRetries: 0,
      providerOptions: { hfkit: { routing: { maxPrice: 0.7 } } },
    });
    expect(await served(result)).toBe("together");
    expect(reached()).toEqual(["together"]);
  });

  it("routing.sort price from the settings: the cheaper novita first", async () => {
    const hf = onRouter({ routing: { sort: "price", explore: 0 } });
    const result = await generateText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0 });
    expect(await served(result)).toBe("novita");
    expect(reached()).toEqual(["novita"]);
  });

  it("weights in the settings' provider list, drawn by routing.random", async () => {
    const weighted = [
      { name: "together", weight: 1 },
      { name: "novita", weight: 3 },
    ];
    const draws = [0.1, 0.5, 0.9, 0.5]; // each call draws twice: its first, then the next of the rest
    const hf = onRouter({ provider: weighted, health: false, routing: { random: () => draws.shift() ?? 0 } });
    for (let i = 0; i < 2; i++) await generateText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0 });
    // 0.1 × 4 falls in together's share (the first 1 of 4), 0.9 × 4 in novita's (the last 3).
    expect(reached()).toEqual(["together", "novita"]);
  });

  it("hedge: a provider silent past afterMs gets the next started beside it; the winner's text only, the loser's stream closed", async () => {
    ctx.hub.inject({ type: "latency", delayMs: 60_000 }, { model: MODEL, provider: "together" });
    const hf = onRouter({ health: false });
    const result = streamText({
      model: hf(MODEL),
      prompt: QUESTION,
      maxRetries: 0,
      providerOptions: { hfkit: { hedge: { afterMs: 50 } } },
    });
    let text = "";
    for await (const part of result.textStream) text += part;
    expect(text).toBe(TEXT);
    expect((await result.providerMetadata)?.hfkit).toMatchObject({
      provider: "novita",
      hedge: { from: TOGETHER, to: NOVITA, winner: NOVITA },
    });
    expect(reached()).toEqual(["together", "novita"]);
    expect(await settled(ctx.hub)).toBe(0); // together's stream, still in its minute-long wait, was closed
  });

  it("hedge from the settings, on generateText too; hedge: false for one call turns it off", async () => {
    ctx.hub.inject({ type: "latency", delayMs: 300 }, { model: MODEL, provider: "together" });
    const hf = onRouter({ health: false, hedge: { afterMs: 20 } });
    const hedged = await generateText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0 });
    expect(hedged.providerMetadata?.hfkit).toMatchObject({ provider: "novita", hedge: { winner: NOVITA } });
    const plain = await generateText({
      model: hf(MODEL),
      prompt: QUESTION,
      maxRetries: 0,
      providerOptions: { hfkit: { hedge: false } },
    });
    expect(plain.providerMetadata?.hfkit).toEqual({ model: MODEL, provider: "together", cost: expect.anything() });
    expect(reached()).toEqual(["together", "novita", "together"]);
  });
});

describe("bad values are an InvalidArgumentError naming the field, before any request", () => {
  it.each([
    ["settings", { health: { threshold: 0 } }, undefined, "health.threshold"],
    ["settings", { health: { cooldown: -1 } }, undefined, "health.cooldown"],
    ["settings", { routing: { maxPrice: "1" } }, undefined, "routing.maxPrice"],
    ["settings", { hedge: { afterMs: 0 } }, undefined, "hedge.afterMs"],
    ["settings", { provider: [{ name: "together", weight: -1 }, "novita"] }, undefined, "provider[0].weight"],
    ["providerOptions", {}, { health: "off" }, "health"],
    ["providerOptions", {}, { health: { ratio: 2 } }, "health.ratio"],
    ["providerOptions", {}, { routing: { sort: "fastest" } }, "routing.sort"],
    ["providerOptions", {}, { hedge: { percentile: 100 } }, "hedge.percentile"],
  ] as const)("%s %j %j: %s", async (_, settings, own, field) => {
    const hf = onRouter(settings as HfkitProviderSettings);
    const providerOptions = own === undefined ? undefined : { hfkit: own as never };
    const error = await generateText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0, providerOptions }).catch(
      (e: unknown) => e,
    );
    expect(InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as InvalidArgumentError).argument).toBe(field);
    expect((error as Error).message).toContain(field);
    expect(ctx.hub.requests).toHaveLength(0);
  });

  it("streamText: the same error, before any request", async () => {
    const hf = onRouter({ hedge: { afterMs: -5 } });
    const errors: unknown[] = [];
    const result = streamText({ model: hf(MODEL), prompt: QUESTION, maxRetries: 0, onError: (e) => errors.push(e) });
    await within(result.consumeStream());
    expect(errors).toHaveLength(1);
    const error = (errors[0] as { error: unknown }).error;
    expect((error as InvalidArgumentError).argument).toBe("hedge.afterMs");
    expect(ctx.hub.requests).toHaveLength(0);
  });
});
