/**
 * `textGeneration` fails over too: a `provider` list and `fallbackModels` on the router's providers, each
 * candidate the task's own call (the Hub mapping looked up, the provider's completions format sent), against the
 * mock hub, with the requests each candidate sent, in order.
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FailoverError, type FailoverEvent, InputError, textGeneration, textGenerationStream } from "../src/index";
import { mappingMemory } from "../src/targets/providers/mapping";

const MODEL = "hfkit/text-generation";
let hub: MockHub;

beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());
beforeEach(() => {
  mappingMemory.clear();
  hub.reset();
});

const realFetch = globalThis.fetch;
const toHub = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
  realFetch(String(url).replace(/^https:\/\/(router\.)?huggingface\.co/, hub.url), init);
const options = (more: Record<string, unknown> = {}) => ({
  hubUrl: hub.url,
  fetch: toHub,
  maxRetries: 0,
  logger: { warn() {} },
  ...more,
});
const args = {
  accessToken: "hf_textgen_failover",
  model: MODEL,
  inputs: "Once upon a time",
  parameters: { max_new_tokens: 5 },
};
/** The completions requests the providers got, by path. */
const posts = () => hub.requests.filter((r) => r.method === "POST").map((r) => r.path);
const words = " and so on (4 words, 16 characters).";
/** Each provider's own id for MODEL (the mock hub's mapping): a provider's route knows the model by it. */
const AT = {
  together: "hfkit-together/llama",
  featherless: "hfkit-featherless/llama",
  ovhcloud: "hfkit-ovhcloud/llama",
};

describe("textGeneration on the router's providers fails over before its answer", () => {
  it("a 502 from the first provider moves the call to the next; the answer says who served it", async () => {
    hub.inject({ type: "serverError", status: 502 }, { model: AT.together });
    const events: FailoverEvent[] = [];
    const out = await textGeneration(
      { ...args, provider: ["together", "featherless-ai"] },
      options({ onFailover: (e: FailoverEvent) => events.push(e) }),
    );
    expect(out.generated_text).toBe(words);
    expect(out.served).toEqual({ model: MODEL, provider: "featherless-ai" });
    expect(posts()).toEqual(["/together/v1/completions", "/featherless-ai/v1/completions"]);
    expect(events.map((e) => [e.from, e.to, e.reason])).toEqual([
      [`${MODEL}:together`, `${MODEL}:featherless-ai`, "server-error"],
    ]);
    expect(events[0]?.error?.name).toBe("ServerError");
  });

  it("a 429 moves the call at once, not retried on the same provider (maxRetries 2)", async () => {
    hub.inject({ type: "rateLimit" }, { model: AT.together });
    const out = await textGeneration({ ...args, provider: ["together", "ovhcloud"] }, options({ maxRetries: 2 }));
    expect(out.served?.provider).toBe("ovhcloud");
    expect(posts()).toEqual(["/together/v1/completions", "/ovhcloud/v1/completions"]);
  });

  it("the last candidate retries as any call does, its budget less the moves made", async () => {
    hub.inject({ type: "serverError", status: 500 }, { model: AT.together });
    hub.inject({ type: "serverError", status: 500 }, { model: AT.ovhcloud, times: 1 });
    const out = await textGeneration(
      { ...args, provider: ["together", "ovhcloud"] },
      options({ maxRetries: 2, retryDelay: 1 }),
    );
    expect(out.served?.provider).toBe("ovhcloud");
    expect(posts()).toEqual(["/together/v1/completions", "/ovhcloud/v1/completions", "/ovhcloud/v1/completions"]);
  });

  it("a caller's mistake (401) fails at once: it would fail everywhere", async () => {
    hub.inject({ type: "unauthorized" }, { model: AT.together });
    const error = await textGeneration({ ...args, provider: ["together", "ovhcloud"] }, options()).catch(
      (e: unknown) => e,
    );
    expect(error).not.toBeInstanceOf(FailoverError);
    expect((error as { status?: number }).status).toBe(401);
    expect(posts()).toEqual(["/together/v1/completions"]);
  });

  it("every candidate failed: one FailoverError listing each attempt, in order, without the token", async () => {
    hub.inject({ type: "serverError", status: 503 }, { model: AT.together });
    hub.inject({ type: "serverError", status: 503 }, { model: AT.ovhcloud });
    const error = await textGeneration({ ...args, provider: ["together", "ovhcloud"] }, options()).catch(
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(FailoverError);
    const failed = error as FailoverError;
    expect(failed.attempts.map((a) => [a.candidate, a.reason, a.error?.name])).toEqual([
      [`${MODEL}:together`, "overloaded", "ServerError"],
      [`${MODEL}:ovhcloud`, "overloaded", "ServerError"],
    ]);
    expect(failed.message).toContain(`${MODEL}:together overloaded`);
    expect(JSON.stringify({ message: failed.message, attempts: failed.attempts })).not.toContain("hf_textgen_failover");
  });

  it("fallbackModels are tried after the main model's providers", async () => {
    hub.inject({ type: "serverError", status: 500 }, { model: AT.together });
    const out = await textGeneration(
      { ...args, provider: "together", fallbackModels: ["hfkit/tgi-3.2:hf-inference"] },
      options(),
    );
    expect(out.served).toEqual({ model: "hfkit/tgi-3.2", provider: "hf-inference" });
    expect(posts()).toEqual(["/together/v1/completions", "/hf-inference/models/hfkit/tgi-3.2"]);
  });
});

describe("bad input is an InputError before any request", () => {
  it.each([
    ["an empty provider list", { provider: [] }, "provider"],
    ["a provider repeated", { provider: ["together", "together"] }, "provider[1]"],
    ["a fallback that is not a model id", { fallbackModels: ["not a model"] }, "fallbackModels[0]"],
    [
      "a fallback that asks the router's policy (chat only)",
      { fallbackModels: ["hfkit/tgi-3.2:fastest"] },
      "fallbackModels[0]",
    ],
    ["the input itself", { inputs: 5, provider: ["together"] }, "inputs"],
  ])("%s", async (_name, bad, field) => {
    const error = await textGeneration({ ...args, ...bad } as never, options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe(field);
    expect(hub.requests).toEqual([]);
  });

  it("onFailover that is not a function", async () => {
    const error = await textGeneration({ ...args, provider: ["together"] }, options({ onFailover: "log" })).catch(
      (e: unknown) => e,
    );
    expect((error as InputError).field).toBe("onFailover");
    expect(hub.requests).toEqual([]);
  });

  it("textGenerationStream does not fail over: a provider list is an InputError naming provider", async () => {
    const stream = textGenerationStream(
      { ...args, provider: ["together", "ovhcloud"] as unknown as string },
      options(),
    );
    const error = await stream.next().catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect((error as InputError).field).toBe("provider");
    expect(hub.requests).toEqual([]);
  });
});
