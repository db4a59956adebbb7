/**
 * The router's catalog (`listModels`) over loopback HTTP against the mock hub: the typed list, the one request a
 * memory saves (per token, with an expiry, shared by concurrent calls), the client's method, and the checks made
 * before any request.
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { InferenceClient, InputError, listModels, type ListModelsOptions } from "../src/index";
import { catalogMemory } from "../src/features/catalog";

let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub({
    models: {
      "acme/vision": {
        maxTotalTokens: 8192,
        architecture: { inputModalities: ["text", "image"] },
        providers: [
          "groq",
          {
            provider: "acme",
            status: "staging",
            contextLength: null,
            pricing: { input: 1, output: 2 },
            supportsTools: false,
            isModelAuthor: true,
          },
        ],
      },
    },
  });
});
afterAll(() => hub.close());
beforeEach(() => {
  catalogMemory.clear();
  catalogMemory.lookups.clear();
  hub.reset();
});
afterEach(() => vi.useRealTimers());

const TOKEN = "hf_catalogTokenAAAAAAAAAAAAAAAAAAAA";
const OTHER = "hf_catalogTokenBBBBBBBBBBBBBBBBBBBB";
const options = (extra: ListModelsOptions = {}): ListModelsOptions => ({
  routerUrl: hub.url,
  accessToken: TOKEN,
  ...extra,
});
const asked = () => hub.requests.filter((r) => r.path === "/v1/models");
const realFetch = globalThis.fetch;

describe("listModels", () => {
  it("answers the router's list typed: architecture, and per provider status, context length, pricing and capabilities", async () => {
    const models = await listModels(options());
    expect(models.find((m) => m.id === "acme/vision")).toEqual({
      id: "acme/vision",
      created: 1735689600,
      owned_by: "acme",
      architecture: { input_modalities: ["text", "image"], output_modalities: ["text"] },
      providers: [
        {
          provider: "groq",
          status: "live",
          context_length: 8192,
          pricing: { input: 0.1, output: 0.3 },
          supports_tools: true,
          supports_structured_output: true,
          is_model_author: false,
        },
        {
          provider: "acme",
          status: "staging",
          pricing: { input: 1, output: 2 },
          supports_tools: false,
          supports_structured_output: true,
          is_model_author: true,
        },
      ],
    });
    expect(models.some((m) => m.id === "hfkit/router-none")).toBe(false);
    expect(asked()).toEqual([
      expect.objectContaining({
        method: "GET",
        headers: expect.objectContaining({ authorization: `Bearer ${TOKEN}` }),
      }),
    ]);
  });

  it("asks https://router.huggingface.co/v1/models by default", async () => {
    const urls: string[] = [];
    const fetch = (url: string, init?: RequestInit) => (
      urls.push(url),
      realFetch(url.replace("https://router.huggingface.co", hub.url), init)
    );
    const models = await listModels({ accessToken: TOKEN, fetch });
    expect(urls).toEqual(["https://router.huggingface.co/v1/models"]);
    expect(models.map((m) => m.id)).toContain("hfkit/router-multi");
  });

  it("a trailing slash of routerUrl is not doubled", async () => {
    await listModels(options({ routerUrl: `${hub.url}//` }));
    expect(asked()).toHaveLength(1);
  });
});

describe("the memory of the list", () => {
  it("a second call sends nothing and answers the same list", async () => {
    const first = await listModels(options());
    const second = await listModels(options());
    expect(second).toBe(first);
    expect(asked()).toHaveLength(1);
  });

  it("after the hour it keeps a list, the router is asked again", async () => {
    vi.useFakeTimers({ toFake: ["Date"] });
    await listModels(options());
    vi.setSystemTime(Date.now() + 59 * 60_000);
    await listModels(options());
    expect(asked()).toHaveLength(1);
    vi.setSystemTime(Date.now() + 2 * 60_000);
    await listModels(options());
    expect(asked()).toHaveLength(2);
  });

  it("is per token: another token, or none, asks again; each is remembered apart", async () => {
    await listModels(options());
    await listModels(options({ accessToken: OTHER }));
    await listModels(options({ accessToken: "" }));
    await listModels(options());
    await listModels(options({ accessToken: OTHER }));
    expect(asked().map((r) => r.headers.authorization)).toEqual([`Bearer ${TOKEN}`, `Bearer ${OTHER}`, undefined]);
  });

  it("is per router: another routerUrl asks again", async () => {
    await listModels(options());
    await listModels(options({ routerUrl: hub.url.replace("127.0.0.1", "localhost") }));
    expect(asked()).toHaveLength(2);
  });

  it("keeps no token: the memory's keys hold a hash of it", async () => {
    await listModels(options());
    const keys = [...(catalogMemory as unknown as { facts: Map<string, unknown> }).facts.keys()];
    expect(keys).toHaveLength(1);
    expect(keys[0]).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/v1\/models\|\w+$/);
    expect(keys[0]).not.toContain(TOKEN.slice(3));
  });

  it("refresh: true asks again, and what it answers is remembered", async () => {
    await listModels(options());
    hub.setModel("acme/new", { providers: ["groq"] });
    const refreshed = await listModels(options({ refresh: true }));
    expect(refreshed.map((m) => m.id)).toContain("acme/new");
    expect((await listModels(options())).map((m) => m.id)).toContain("acme/new");
    expect(asked()).toHaveLength(2);
  });

  it("concurrent calls share one request", async () => {
    const lists = await Promise.all([listModels(options()), listModels(options()), listModels(options())]);
    expect(asked()).toHaveLength(1);
    expect(lists[1]).toBe(lists[0]);
    expect(lists[2]).toBe(lists[0]);
  });
});

describe("InferenceClient.listModels", () => {
  const fetch = (url: string, init?: RequestInit) =>
    realFetch(url.replace("https://router.huggingface.co", hub.url), init);

  it("sends the client's token, with its default options (its fetch, its headers)", async () => {
    const client = new InferenceClient(TOKEN, { fetch, headers: { "x-app": "catalog" } });
    const models = await client.listModels();
    expect(models.map((m) => m.id)).toContain("acme/vision");
    expect(asked()).toEqual([
      expect.objectContaining({
        headers: expect.objectContaining({ authorization: `Bearer ${TOKEN}`, "x-app": "catalog" }),
      }),
    ]);
  });

  it("a call's own token and options override the client's", async () => {
    const client = new InferenceClient(TOKEN, { fetch, routerUrl: "ftp://never" } as ListModelsOptions);
    await client.listModels({ accessToken: OTHER, routerUrl: hub.url });
    expect(asked().map((r) => r.headers.authorization)).toEqual([`Bearer ${OTHER}`]);
  });
});

describe("bad input: an InputError naming the field, and no request", () => {
  it.each([
    ["routerUrl", { routerUrl: "ftp://example.com" }],
    ["routerUrl", { routerUrl: "not a url" }],
    ["routerUrl", { routerUrl: "https://user:secret@example.com" }],
    ["routerUrl", { routerUrl: 42 }],
    ["refresh", { refresh: "yes" }],
    ["timeout", { timeout: -1 }],
    ["maxRetries", { maxRetries: 1.5 }],
    ["accessToken", { accessToken: `${TOKEN}\n` }],
  ])("%s: %j", async (field, bad) => {
    const error = await listModels(options(bad as ListModelsOptions)).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({ field });
    expect(String(error)).not.toContain("secret");
    expect(hub.requests).toEqual([]);
  });

  it("options that are not an object", async () => {
    const error = await listModels("https://router.huggingface.co" as never).catch((e: unknown) => e);
    expect(error).toMatchObject({ name: "InputError", field: "options" });
    expect(hub.requests).toEqual([]);
  });
});
