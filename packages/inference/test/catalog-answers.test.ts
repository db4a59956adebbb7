/**
 * The router's catalog against a raw loopback server answering what the mock hub never would: fields missing,
 * of the wrong type or new; answers that are not a list; errors that echo the token; a lookup that fails, then
 * succeeds; a caller that gives up while others wait.
 */
import { describe, expect, it } from "vitest";
import { whole } from "./faults/raw-server";
import { expectNoSecret, HF_SECRET, useRawServer } from "./hardening/support";
import {
  AuthenticationError,
  ConnectionError,
  InferenceClientHubApiError,
  listModels,
  MalformedEventError,
  ServerError,
  TimeoutError,
  type ListModelsOptions,
} from "../src/index";
import { catalogMemory } from "../src/features/catalog";

const raw = useRawServer(() => {
  catalogMemory.clear();
  catalogMemory.lookups.clear();
});
const JSON_TYPE = "application/json";
const options = (extra: ListModelsOptions = {}): ListModelsOptions => ({
  routerUrl: raw.server.url,
  accessToken: HF_SECRET,
  ...extra,
});
const answer = (body: unknown, status = 200, type = JSON_TYPE): void =>
  raw.server.handle((_req, reply) =>
    whole(reply, status, type, typeof body === "string" ? body : JSON.stringify(body), [
      ["x-request-id", `req-${HF_SECRET}`],
    ]),
  );

describe("tolerance", () => {
  it("fields missing or of the wrong type are left out; new fields are ignored; entries without an id or a provider name are skipped", async () => {
    answer({
      object: "list",
      data: [
        { id: "org/bare" },
        {
          id: "org/odd",
          object: "model",
          created: "yesterday",
          owned_by: 7,
          architecture: { input_modalities: ["text", 3, "image"], output_modalities: "text", tokenizer: "x" },
          providers: [
            {
              provider: "a",
              status: 1,
              context_length: "long",
              pricing: { input: 1 },
              supports_tools: "yes",
              supports_structured_output: null,
              is_model_author: 0,
            },
            { provider: "b", status: "live", context_length: 8192, pricing: { input: 0.5, output: "1" } },
            {
              provider: "c",
              pricing: { input: 0.25, output: 2, cached: 0.1 },
              new_field: { nested: true },
              supports_tools: false,
            },
            { status: "live" },
            { provider: 5 },
            "d",
            null,
          ],
          future_field: [1, 2],
        },
        { id: "org/providers-not-a-list", providers: { a: {} }, architecture: "text" },
        { object: "model", providers: [{ provider: "a" }] },
        { id: 42 },
        { id: "" },
        null,
        "org/string",
      ],
    });
    expect(await listModels(options())).toEqual([
      { id: "org/bare", providers: [] },
      {
        id: "org/odd",
        architecture: { input_modalities: ["text", "image"], output_modalities: [] },
        providers: [
          { provider: "a" },
          { provider: "b", status: "live", context_length: 8192 },
          { provider: "c", pricing: { input: 0.25, output: 2 }, supports_tools: false },
        ],
      },
      { id: "org/providers-not-a-list", providers: [] },
    ]);
  });

  it("what is left out is absent, not undefined", async () => {
    answer({ data: [{ id: "org/bare", created: null, providers: [{ provider: "a", pricing: null }] }] });
    const [model] = await listModels(options());
    expect(Object.keys(model ?? {})).toEqual(["id", "providers"]);
    expect(Object.keys(model?.providers[0] ?? {})).toEqual(["provider"]);
  });

  it("an empty list is a list", async () => {
    answer({ object: "list", data: [] });
    expect(await listModels(options())).toEqual([]);
  });
});

describe("answers that are not a list", () => {
  it.each([
    ["an array", [{ id: "org/a" }]],
    ["data not an array", { object: "list", data: { id: "org/a" } }],
    ["no data", { object: "list" }],
    ["JSON null", "null"],
    ["an HTML page", "<html>Bad gateway</html>"],
    ["JSON cut short", '{"data": [{"id": "org/a"'],
  ])("%s: a MalformedEventError quoting its start, never the token, not remembered", async (_what, body) => {
    answer(body, 200, typeof body === "string" && body.startsWith("<") ? "text/html" : JSON_TYPE);
    const error = await listModels(options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedEventError);
    expect((error as Error).message).toMatch(/not \{"data": \[\.\.\.\]\}/);
    answer({ data: [{ id: "org/a" }] });
    expect(await listModels(options())).toEqual([{ id: "org/a", providers: [] }]);
    expect(raw.server.requests).toHaveLength(2);
  });

  it("a body echoing the token is redacted from the error", async () => {
    answer({ error: `bad token ${HF_SECRET}` });
    const error = await listModels(options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedEventError);
    expectNoSecret(error, HF_SECRET);
    expect((error as MalformedEventError).data).toContain("[redacted]");
  });
});

describe("HTTP errors", () => {
  it("401 is an AuthenticationError (a Hub API error) keeping status, body and request id, never the token", async () => {
    answer({ error: `Invalid credentials in Authorization header: Bearer ${HF_SECRET}` }, 401);
    const error = await listModels(options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect(error).toBeInstanceOf(InferenceClientHubApiError);
    expect(error).toMatchObject({
      status: 401,
      requestId: "req-[redacted]",
      url: `${raw.server.url}/v1/models`,
      httpRequest: { method: "GET" },
    });
    expect((error as AuthenticationError).body).toEqual({
      error: "Invalid credentials in Authorization header: Bearer [redacted]",
    });
    expectNoSecret(error, HF_SECRET);
  });

  it("a token of another form than hf_ is redacted too, wherever the answer echoes it", async () => {
    const key = "sk-OtherFormOfKey-0123456789";
    raw.server.handle((_req, reply) =>
      whole(reply, 403, JSON_TYPE, JSON.stringify({ error: `key ${key} refused` }), [["x-request-id", key]]),
    );
    const error = await listModels(options({ accessToken: key })).catch((e: unknown) => e);
    expect(error).toMatchObject({
      name: "PermissionError",
      status: 403,
      requestId: "[redacted]",
      body: { error: "key [redacted] refused" },
    });
    expectNoSecret(error, key);
  });

  it("500 is a ServerError with its text body; the next call asks again", async () => {
    answer("upstream down", 500, "text/plain");
    const error = await listModels(options()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ServerError);
    expect(error).toMatchObject({ status: 500, body: "upstream down", requestId: "req-[redacted]" });
    answer({ data: [{ id: "org/a" }] });
    expect(await listModels(options())).toHaveLength(1);
    expect(await listModels(options())).toHaveLength(1);
    expect(raw.server.requests).toHaveLength(2);
  });

  it("a refused connection is a ConnectionError without the token, and is not remembered", async () => {
    const error = await listModels(options({ routerUrl: "http://127.0.0.1:9" })).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expectNoSecret(error, HF_SECRET);
    expect(catalogMemory.size).toBe(0);
    expect(catalogMemory.lookups.size).toBe(0);
  });
});

describe("one lookup, its own clock", () => {
  it("a caller whose timeout fires gets a TimeoutError; the others still get the list from the one request", async () => {
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    raw.server.handle(async (_req, reply) => {
      await held;
      whole(reply, 200, JSON_TYPE, JSON.stringify({ data: [{ id: "org/a" }] }));
    });
    const impatient = listModels(options({ timeout: 50 })).catch((e: unknown) => e);
    const patient = listModels(options());
    expect(await impatient).toMatchObject({ name: "TimeoutError", kind: "deadline" });
    expect(await impatient).toBeInstanceOf(TimeoutError);
    release();
    expect(await patient).toEqual([{ id: "org/a", providers: [] }]);
    expect(raw.server.requests).toHaveLength(1);
  });

  it("a caller's abort ends its wait, not the lookup", async () => {
    let release = (): void => {};
    const held = new Promise<void>((resolve) => (release = resolve));
    raw.server.handle(async (_req, reply) => {
      await held;
      whole(reply, 200, JSON_TYPE, JSON.stringify({ data: [{ id: "org/a" }] }));
    });
    const controller = new AbortController();
    const leaving = listModels(options({ signal: controller.signal })).catch((e: unknown) => e);
    const staying = listModels(options());
    controller.abort();
    expect(await leaving).toMatchObject({ name: "AbortError" });
    release();
    expect(await staying).toHaveLength(1);
    expect(await listModels(options())).toHaveLength(1);
    expect(raw.server.requests).toHaveLength(1);
  });
});
