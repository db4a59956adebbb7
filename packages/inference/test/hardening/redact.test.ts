/**
 * The redaction rules, each pinned by what a user would see: the exact text left after redaction (so that a rule that
 * redacts too little, or eats what follows, fails), and properties over any token. Then the same rules through the
 * public API: an error body echoing credentials, a fetch failure quoting a URL.
 */
import fc from "fast-check";
import { inspect } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConnectionError, InferenceClient, MalformedEventError, ValidationError } from "../../src/index";
import { redactError, redactText, redactUrl, redactValue, sealError, serverText } from "../../src/core/redact";
import { type RawServer, startRawServer, whole } from "../faults/raw-server";
import { closedPort } from "../faults/support";

const SECRET = "sk-my-own-provider-key-42";

describe("redactUrl", () => {
  it.each([
    ["https://h/x?token=abcd", "https://h/x?token=[redacted]"],
    ["https://h/x?token=abcd&n=1", "https://h/x?token=[redacted]&n=1"],
    ["https://h/x?n=1&api_key=abcd#frag", "https://h/x?n=1&api_key=[redacted]#frag"],
    ["https://h/x?access_token=abcd", "https://h/x?access_token=[redacted]"],
    [
      "https://h/x?X-Amz-Signature=abc&sig=d&password=e&client_secret=f&auth=g",
      "https://h/x?X-Amz-Signature=[redacted]&sig=[redacted]&password=[redacted]&client_secret=[redacted]&auth=[redacted]",
    ],
    ["https://user:pass@host.example/p?q=1", "https://host.example/p?q=1"],
    ["HTTP://user@host.example/", "HTTP://host.example/"],
    ["https://host.example/a@b", "https://host.example/a@b"],
    ["https://host.example/?q=1&page=2", "https://host.example/?q=1&page=2"],
    [
      "https://h/x?api_key_v2=abc&sessionToken2=d&n=1",
      "https://h/x?api_key_v2=[redacted]&sessionToken2=[redacted]&n=1",
    ],
    ["https://h/login?next=https://u:p@inner.example/", "https://h/login?next=https://inner.example/"],
  ])("%s → %s", (url, shown) => expect(redactUrl(url)).toBe(shown));
});

describe("redactText", () => {
  it.each([
    [`the key ${SECRET} was refused`, "the key [redacted] was refused"],
    [`${SECRET}${SECRET}`, "[redacted][redacted]"],
    ["an echoed hf_abcdefghijklmnopqrstuvwxyz0123456789 of someone else", "an echoed [redacted] of someone else"],
    ["hf_short is no token", "hf_short is no token"],
    ["Authorization: Bearer abc.def-ghi, next", "Authorization: Bearer [redacted], next"],
    ["bearer\tabc123", "bearer\t[redacted]"],
    ["Bearer\nabc123", "Bearer\n[redacted]"],
    ["Bearer  abc123", "Bearer  [redacted]"],
    ['{"authorization":"Bearer abc123"}', '{"authorization":"Bearer [redacted]"}'],
    ["a Bearer's hat", "a Bearer's hat"],
  ])("%j → %j", (text, shown) => expect(redactText(text, SECRET)).toBe(shown));

  it("a secret shorter than 4 characters is not searched for (it would redact ordinary words)", () => {
    expect(redactText("abc abc", "abc")).toBe("abc abc");
    expect(redactText("abcd abcd", "abcd")).toBe("[redacted] [redacted]");
  });

  it("whatever the token and wherever it sits, it is gone (property)", () => {
    // Token-like secrets: letters, digits, `_` and `-` (a secret inside the word "[redacted]" would be shown by the mark itself).
    const token = fc.stringMatching(/^[A-Za-z0-9_-]{4,40}$/).filter((t) => !"[redacted]".includes(t));
    fc.assert(
      fc.property(
        token,
        fc.string(),
        fc.string(),
        (secret, before, after) => !redactText(`${before}${secret}${after}${secret}`, secret).includes(secret),
      ),
    );
  });
});

describe("serverText", () => {
  it("a server's value as text: strings as they are, other values as JSON, cut to the bound, redacted", () => {
    expect(serverText("done", SECRET)).toBe("done");
    expect(serverText({ id: SECRET }, SECRET)).toBe('{"id":"[redacted]"}');
    expect(serverText(42)).toBe("42");
    expect(serverText(undefined)).toBe("undefined");
    expect(serverText("x".repeat(300))).toHaveLength(200);
    expect(serverText("x".repeat(300), undefined, 10)).toBe("x".repeat(10));
    expect(serverText(`${"x".repeat(195)}${SECRET}`, SECRET)).toBe(`${"x".repeat(195)}[reda`);
    const long = "L".repeat(300); // a key longer than the room kept past the cut
    expect(serverText(`${"x".repeat(190)}${long} and more`, long)).toBe(`${"x".repeat(190)}[redacted]`);
  });
});

describe("redactValue", () => {
  it("every string of a JSON body, keys included, at any depth; other values as they are", () => {
    const body = { [`k-${SECRET}`]: [1, null, true, { deep: `Bearer ${SECRET}` }], n: 3 };
    expect(redactValue(body, SECRET)).toEqual({ "k-[redacted]": [1, null, true, { deep: "Bearer [redacted]" }], n: 3 });
  });

  it("an object nested past 32 levels is a mark, never shown unredacted; at 32 levels it is kept", () => {
    const nest = (levels: number, inner: unknown): unknown => (levels === 0 ? inner : { a: nest(levels - 1, inner) });
    const dig = (value: unknown, levels: number): unknown =>
      levels === 0 ? value : dig((value as { a: unknown }).a, levels - 1);
    expect(dig(redactValue(nest(32, { s: SECRET }), SECRET), 32)).toEqual({ s: "[redacted]" });
    expect(dig(redactValue(nest(33, { s: SECRET }), SECRET), 33)).toBe("[redacted]");
    expect(dig(redactValue(nest(40, [SECRET]), SECRET), 33)).toBe("[redacted]");
    expect(JSON.stringify(redactValue(nest(200, SECRET), SECRET))).not.toContain(SECRET);
    let arrays: unknown = [SECRET];
    for (let i = 0; i < 40; i++) arrays = [arrays];
    expect(JSON.stringify(redactValue(arrays, SECRET))).toContain('["[redacted]"]');
  });

  it("an object without a prototype (as some parsers make) is redacted too", () => {
    const bare = Object.assign(Object.create(null) as Record<string, unknown>, { s: SECRET });
    expect(redactValue(bare, SECRET)).toEqual({ s: "[redacted]" });
  });

  it("a value that is not plain data (a Blob, a Date) is left as it is, not turned into {}", () => {
    const blob = new Blob(["x"]);
    const date = new Date(0);
    const out = redactValue({ blob, date }, SECRET) as { blob: unknown; date: unknown };
    expect(out.blob).toBe(blob);
    expect(out.date).toBe(date);
  });
});

describe("redactError and sealError", () => {
  it("a copy keeps the name and the fields a caller reads (code, errno, syscall, address, port, hostname), redacted", () => {
    const inner = Object.assign(new Error(`connect ECONNREFUSED for ${SECRET}`), {
      code: "ECONNREFUSED",
      errno: -111,
      syscall: "connect",
      address: "127.0.0.1",
      port: 9,
      hostname: `h-${SECRET}`,
    });
    inner.name = "SystemError";
    const copy = redactError(new TypeError("fetch failed", { cause: inner }), SECRET) as Error & {
      cause: Record<string, unknown>;
    };
    expect(copy.name).toBe("TypeError");
    expect(copy.message).toBe("fetch failed");
    expect(copy.cause).toMatchObject({
      name: "SystemError",
      message: "connect ECONNREFUSED for [redacted]",
      code: "ECONNREFUSED",
      errno: -111,
      syscall: "connect",
      address: "127.0.0.1",
      port: 9,
      hostname: "h-[redacted]",
    });
    expect(inspect(copy, { depth: 5 })).not.toContain(SECRET);
  });

  it("a copy is made whenever anything shown would change: the message, the stack, a kept field, the cause", () => {
    const inMessage = redactError(new Error(`bad ${SECRET}`), SECRET) as Error;
    expect(inMessage.message).toBe("bad [redacted]");
    const stacked = Object.assign(new Error("clean"), { stack: `Error: clean\n    at ${SECRET}` });
    expect((redactError(stacked, SECRET) as Error).stack).toBe("Error: clean\n    at [redacted]");
    const field = Object.assign(new Error("clean"), { code: "ENOTFOUND", hostname: `${SECRET}.example` });
    expect(redactError(field, SECRET)).toMatchObject({ code: "ENOTFOUND", hostname: "[redacted].example" });
    const ownStack = Object.assign(new Error(`bad ${SECRET}`), { stack: "a stack that does not quote the message" });
    expect((redactError(ownStack, SECRET) as Error).message).toBe("bad [redacted]");
    const deep = new Error("clean", { cause: new Error(`inner ${SECRET}`) });
    expect(((redactError(deep, SECRET) as Error).cause as Error).message).toBe("inner [redacted]");
  });

  it("a copy carries only what the original had: no cause, no code unless the original had them", () => {
    const copy = redactError(new Error(`bad ${SECRET}`), SECRET) as Error;
    expect(Object.hasOwn(copy, "cause")).toBe(false);
    expect(Object.hasOwn(copy, "code")).toBe(false);
    expect(Object.keys(copy)).toEqual(["name"]);
  });

  it("a cause chain longer than 9 ends in a mark, never in an unredacted cause", () => {
    let chain: Error = new Error(`bottom ${SECRET}`);
    for (let i = 0; i < 12; i++) chain = new Error(`level ${i}`, { cause: chain });
    const shown = inspect(redactError(chain, SECRET), { depth: 30 });
    expect(shown).not.toContain(SECRET);
    expect(shown).toContain("[redacted]");
  });

  it("a kept field alone decides a copy: a clean error with a code is itself, one with only a host to redact is copied", () => {
    const clean = Object.assign(new Error("connect ECONNREFUSED"), { code: "ECONNREFUSED", port: 9 });
    expect(redactError(clean, SECRET)).toBe(clean);
    const host = Object.assign(new Error("clean"), { hostname: `${SECRET}.example` });
    expect(redactError(host, SECRET)).not.toBe(host);
    expect((redactError(host, SECRET) as { hostname: string }).hostname).toBe("[redacted].example");
  });

  it("depth is bounded whatever a server sends: 20 000 nested arrays or causes do not overflow the stack", () => {
    let arrays: unknown = [SECRET];
    for (let i = 0; i < 20_000; i++) arrays = [arrays];
    expect(() => redactValue(arrays, SECRET)).not.toThrow();
    let chain: Error = new Error(`bottom ${SECRET}`);
    for (let i = 0; i < 20_000; i++) chain = new Error("up", { cause: chain });
    expect(() => redactError(chain, SECRET)).not.toThrow();
  });

  it("a chain of 9 (the deepest cause at depth 8) is kept whole, redacted", () => {
    let chain: Error = new Error(`bottom ${SECRET}`);
    for (let i = 0; i < 8; i++) chain = new Error(`level ${i}`, { cause: chain });
    let bottom = redactError(chain, SECRET) as Error;
    while (bottom.cause instanceof Error) bottom = bottom.cause;
    expect(bottom.message).toBe("bottom [redacted]");
  });

  it("an error with nothing to redact is answered as itself (its identity and class kept)", () => {
    const clean = new SyntaxError("Unexpected token");
    expect(redactError(clean, SECRET)).toBe(clean);
    expect(redactError("plain text", SECRET)).toBe("plain text");
    expect(redactError(`a ${SECRET}`, SECRET)).toBe("a [redacted]");
    expect(redactError(42, SECRET)).toBe(42);
  });

  it("sealError redacts in place: the message, the stack, the own fields, the cause chain", () => {
    const error = Object.assign(new Error(`failed with ${SECRET}`, { cause: new Error(`inner ${SECRET}`) }), {
      body: { echo: SECRET },
    });
    expect(sealError(error, SECRET)).toBe(error);
    expect(error.message).toBe("failed with [redacted]");
    expect(error.stack).toContain("failed with [redacted]");
    expect(error.body).toEqual({ echo: "[redacted]" });
    expect((error.cause as Error).message).toBe("inner [redacted]");
    expect(JSON.stringify(error)).not.toContain(SECRET);
    expect(inspect(error, { depth: 5 })).not.toContain(SECRET);
    expect(sealError("not an error", SECRET)).toBe("not an error");
  });

  it("sealError redacts a stack already formatted before the message changed, and adds nothing the error lacked", () => {
    const read = new Error(`failed with ${SECRET}`);
    void read.stack; // formatted now, with the secret in it
    sealError(read, SECRET);
    expect(read.stack).not.toContain(SECRET);
    expect(Object.hasOwn(read, "cause")).toBe(false);
    const stackless = new Error(`x ${SECRET}`);
    Object.defineProperty(stackless, "stack", { value: undefined, writable: true });
    expect(sealError(stackless, SECRET).stack).toBeUndefined();
    expect(stackless.message).toBe("x [redacted]");
  });
});

describe("through the public API", () => {
  let raw: RawServer;
  beforeAll(async () => {
    raw = await startRawServer();
  });
  afterAll(() => raw.close());

  it("an error body quoting the caller's own key, an HF token and a signed URL: the typed error shows none of them", async () => {
    const echo = `key ${SECRET}, token hf_abcdefghijklmnopqrstuvwxyz012345, see https://u:p@cdn.example/x?sig=s3cr3t`;
    raw.handle((_req, reply) =>
      whole(reply, 400, "application/json", JSON.stringify({ error: echo }), [["x-request-id", `req-${SECRET}`]]),
    );
    const client = new InferenceClient(SECRET, { endpointUrl: raw.url, backend: "openai" });
    const error = (await client
      .chatCompletion({ messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e)) as ValidationError;
    expect(error).toBeInstanceOf(ValidationError);
    expect(error.requestId).toBe("req-[redacted]");
    expect(error.message).toContain("key [redacted], token [redacted]");
    for (const text of [error.message, JSON.stringify(error), inspect(error, { depth: 8 })]) {
      expect(text).not.toContain(SECRET);
      expect(text).not.toContain("hf_abcdefghijklmnopqrstuvwxyz012345");
    }
  });

  it("a malformed event with the key across the point where the message is cut: not even its start is shown", async () => {
    const data = `${"x".repeat(190)}${SECRET} not json`;
    raw.handle((_req, reply) => whole(reply, 200, "text/event-stream", `data: ${data}\n\n`));
    const client = new InferenceClient(SECRET, { endpointUrl: raw.url, backend: "openai" });
    const error = (await client
      .chatCompletion({ messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e)) as MalformedEventError;
    expect(error).toBeInstanceOf(MalformedEventError);
    expect(error.message).not.toContain(SECRET.slice(0, 4));
    expect(error.data).toContain(`${"x".repeat(190)}[redacted] not json`);
  });

  it("a refused connection to a URL carrying ?api_key=: the ConnectionError's url and message lose the value, its cause keeps code", async () => {
    const port = await closedPort();
    const client = new InferenceClient(SECRET, {
      endpointUrl: `http://127.0.0.1:${port}/v1?api_key=${SECRET}`,
      backend: "openai",
      retry_on_error: false,
    });
    const error = (await client
      .chatCompletion({ messages: [{ role: "user", content: "hi" }] })
      .catch((e: unknown) => e)) as ConnectionError;
    expect(error).toBeInstanceOf(ConnectionError);
    expect(error.url).toContain("api_key=[redacted]");
    expect(error.message).toContain("ECONNREFUSED");
    const codes: unknown[] = [];
    for (let c: unknown = error.cause; c instanceof Error; c = c.cause) codes.push((c as { code?: unknown }).code);
    expect(codes).toContain("ECONNREFUSED");
    expect(inspect(error, { depth: 8 })).not.toContain(SECRET);
  });
});
