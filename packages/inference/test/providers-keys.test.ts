/**
 * A provider's own key (a token that is not `hf_…`): as `@huggingface/inference` 4.13, a task goes to the
 * provider's own API (fal's queue host for its queue, with `Authorization: Key …`), never through the HF
 * router, and the key never goes to the Hub. Both clients run against the mock hub, which stands in for
 * each provider's host (the `fetch` below maps the hosts onto its routes).
 */
import * as hf from "@huggingface/inference";
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import * as ours from "../src/index";
import { routeOf } from "../src/targets/providers/direct";
import { mappingMemory } from "../src/targets/providers/mapping";

const ROUTER = "https://router.huggingface.co";

let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());
beforeEach(() => {
  mappingMemory.clear();
  hub.reset();
});

/** Each host this test may see, onto the mock hub's routes; every URL asked for is recorded. */
const HOSTS: Record<string, string> = {
  "https://api.together.xyz": "/together",
  "https://api.replicate.com": "/replicate",
  "https://queue.fal.run": "/fal-ai",
  "https://fal.run": "/fal-ai",
  "https://huggingface.co": "",
  "https://router.huggingface.co": "",
};
let asked: string[] = [];
const realFetch = globalThis.fetch;
const toHosts = (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
  const u = String(url);
  asked.push(u);
  const host = Object.keys(HOSTS).find((h) => u.startsWith(`${h}/`));
  if (!host) return realFetch(u, init);
  const path = u.slice(host.length);
  // fal's own queue host takes no `_subdomain`; the mock hub serves the queue under it.
  const queued = host === "https://queue.fal.run" ? `${path}${path.includes("?") ? "&" : "?"}_subdomain=queue` : path;
  return realFetch(`${hub.url}${HOSTS[host]}${queued}`, init);
};
beforeEach(() => void (asked = []));
const options = () => ({ hubUrl: "https://huggingface.co", fetch: toHosts, logger: { warn() {} } });
const hosts = () => asked.map((u) => new URL(u).origin);

describe("routeOf", () => {
  it("an HF token (or none) goes through the router; any other token to the provider's own API", () => {
    expect(routeOf("together", "v1/images/generations", "hf_abc", ROUTER)).toBe(
      "https://router.huggingface.co/together/v1/images/generations",
    );
    expect(routeOf("together", "v1/images/generations", undefined, ROUTER)).toBe(
      "https://router.huggingface.co/together/v1/images/generations",
    );
    expect(routeOf("together", "/v1/images/generations", "tgp_v1_key", ROUTER)).toBe(
      "https://api.together.xyz/v1/images/generations",
    );
    expect(routeOf("fal-ai", "fal-ai/flux?_subdomain=queue", "fal_key", ROUTER)).toBe(
      "https://queue.fal.run/fal-ai/flux",
    );
    expect(routeOf("fal-ai", "fal-ai/whisper", "fal_key", ROUTER)).toBe("https://fal.run/fal-ai/whisper");
    expect(routeOf("replicate", "v1/predictions", "r8_key", ROUTER)).toBe("https://api.replicate.com/v1/predictions");
  });
});

describe("textToImage with a provider's own key", () => {
  it("together: sent to api.together.xyz with the key as Bearer; the Hub asked without it; the same as 4.13", async () => {
    const args = {
      accessToken: "tgp_v1_own_key",
      model: "hfkit/text-to-image",
      provider: "together" as const,
      inputs: "a cat",
    };
    const mine = await ours.textToImage(args, { ...options(), outputType: "url" });
    const mineAsked = hosts();
    const [lookup, sent] = hub.requests;
    expect(lookup?.path).toMatch(/^\/api\/models\/hfkit\/text-to-image\?/);
    expect(lookup?.headers.authorization).toBeUndefined();
    expect(sent?.path).toBe("/together/v1/images/generations");
    expect(sent?.headers.authorization).toBe("Bearer tgp_v1_own_key");
    expect(mineAsked).toEqual(["https://huggingface.co", "https://api.together.xyz"]);
    hub.reset();
    asked = [];
    const theirs = await hf.textToImage(args, { fetch: toHosts, outputType: "url" });
    expect(hosts()).toEqual(mineAsked);
    expect(mine).toBe(theirs);
    expect(hub.requests[1]?.body).toEqual(sent?.body);
  });

  describe("fal-ai: its queue on queue.fal.run, polled there, with `Authorization: Key …`", () => {
    // 4.13 polls fal's queue with the global fetch.
    beforeEach(() => void vi.stubGlobal("fetch", toHosts));
    afterEach(() => void vi.unstubAllGlobals());

    it("the same requests as 4.13, none through the router", async () => {
      const args = {
        accessToken: "fal_own_key",
        model: "hfkit/text-to-image-fal",
        provider: "fal-ai" as const,
        inputs: "a cat",
      };
      const seen = () =>
        hub.requests
          .filter((r) => r.path.startsWith("/fal-ai/"))
          .map((r) => [r.method, r.path, r.headers.authorization]);
      const mine = await ours.textToImage(args, { ...options(), outputType: "url" });
      const mineSeen = seen();
      const mineAsked = asked.filter((u) => !u.includes("/api/models/"));
      expect(mineAsked.every((u) => u.startsWith("https://queue.fal.run/"))).toBe(true);
      expect(mineSeen.map((r) => r[2])).toEqual(["Key fal_own_key", "Key fal_own_key", "Key fal_own_key"]);
      hub.reset();
      asked = [];
      const theirs = await hf.textToImage(args, { fetch: toHosts, outputType: "url" });
      expect(seen()).toEqual(mineSeen);
      expect(asked.filter((u) => !u.includes("/api/models/"))).toEqual(mineAsked);
      expect(mine).toBe(theirs);
    });
  });

  it("an error from the provider's own API is typed, and its message and fields never carry the key", async () => {
    hub.inject(
      { type: "serverError", status: 401, body: "bad key tgp_v1_secret_key" },
      { model: "hfkit-together/flux", times: 1 },
    );
    const args = {
      accessToken: "tgp_v1_secret_key",
      model: "hfkit/text-to-image",
      provider: "together" as const,
      inputs: "a cat",
    };
    const error = await ours.textToImage(args, { ...options(), maxRetries: 0 }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.AuthenticationError);
    expect(error).toBeInstanceOf(ours.InferenceClientProviderApiError);
    expect(JSON.stringify({ message: (error as Error).message, ...(error as object) })).not.toContain(
      "tgp_v1_secret_key",
    );
  });
});

describe("chat with a provider's own key", () => {
  const COMPLETION = {
    id: "chatcmpl-1",
    object: "chat.completion",
    created: 1,
    model: "gpt-4o-mini",
    choices: [{ index: 0, message: { role: "assistant", content: "Paris." }, finish_reason: "stop" }],
    usage: { prompt_tokens: 5, completion_tokens: 2, total_tokens: 7 },
  };
  /** Records every request and answers one OpenAI completion. */
  function recording() {
    const sent: { url: string; auth: string | null; body: unknown }[] = [];
    const fetch = async (url: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
      sent.push({
        url: String(url),
        auth: new Headers(init?.headers).get("authorization"),
        body: JSON.parse(String(init?.body)),
      });
      return new Response(JSON.stringify(COMPLETION), { headers: { "content-type": "application/json" } });
    };
    return { sent, fetch };
  }
  const messages = [{ role: "user" as const, content: "Capital of France?" }];

  it("openai: its own key goes to api.openai.com with the model's id there, as 4.13 sends it", async () => {
    const mine = recording();
    const theirs = recording();
    const args = {
      accessToken: "sk-own-openai-key",
      provider: "openai" as const,
      model: "openai/gpt-4o-mini",
      messages,
    };
    const answer = await ours.chatCompletion(args, { fetch: mine.fetch });
    await hf.chatCompletion(args, { fetch: theirs.fetch });
    expect(answer.choices[0]?.message.content).toBe("Paris.");
    expect(mine.sent).toHaveLength(1);
    expect(mine.sent[0]).toMatchObject({
      url: "https://api.openai.com/v1/chat/completions",
      auth: "Bearer sk-own-openai-key",
      body: { model: "gpt-4o-mini", messages },
    });
    expect(mine.sent[0]?.url).toBe(theirs.sent[0]?.url);
    expect((mine.sent[0]?.body as { model: string }).model).toBe((theirs.sent[0]?.body as { model: string }).model);
  });

  it("openai with an HF token: 4.13's InputError, nothing sent", async () => {
    const mine = recording();
    const args = { accessToken: "hf_test", provider: "openai" as const, model: "openai/gpt-4o-mini", messages };
    const error = await ours.chatCompletion(args, { fetch: mine.fetch }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InputError);
    expect(error).toMatchObject({ field: "accessToken" });
    expect((error as Error).message).toMatch(/^Provider openai is closed-source and does not support HF tokens/);
    await expect(hf.chatCompletion(args, { fetch: mine.fetch })).rejects.toThrow(
      /^Provider openai is closed-source and does not support HF tokens/,
    );
    expect(mine.sent).toHaveLength(0);
  });

  it("another provider's own key: an InputError naming accessToken and the two ways that work, nothing sent", async () => {
    const mine = recording();
    const error = await ours
      .chatCompletion(
        { accessToken: "tgp_v1_own_key", provider: "together", model: "org/chat", messages },
        { fetch: mine.fetch },
      )
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ours.InputError);
    expect(error).toMatchObject({ field: "accessToken" });
    expect((error as Error).message).toMatch(
      /HF router takes an hf_ token, not together.s key: set it in your HF settings, or send it with endpointUrl/,
    );
    expect((error as Error).message).not.toContain("tgp_v1_own_key");
    expect(mine.sent).toHaveLength(0);
    // An HF token, or a provider key with the provider's own API as endpointUrl, is sent.
    await ours.chatCompletion(
      { accessToken: "hf_test", provider: "together", model: "org/chat", messages },
      { fetch: mine.fetch },
    );
    await ours.chatCompletion(
      { accessToken: "tgp_v1_own_key", endpointUrl: "https://api.together.xyz/v1", model: "org/chat-turbo", messages },
      { fetch: mine.fetch },
    );
    expect(mine.sent.map((s) => [s.url, s.auth])).toEqual([
      ["https://router.huggingface.co/v1/chat/completions", "Bearer hf_test"],
      ["https://api.together.xyz/v1/chat/completions", "Bearer tgp_v1_own_key"],
    ]);
  });
});
