/**
 * The error classes themselves: the `Symbol.for` brand that lets `instanceof` see an error made by another
 * copy of the package (and nothing else), each class's name and fields, each TimeoutError's text, what an
 * HttpError records of the exchange (over real HTTP: the method a POST and a GET were sent with), and
 * MalformedEventError's 64 KiB of data, redacted before it is cut.
 */
import { describe, expect, it } from "vitest";
import {
  AbortError,
  AuthenticationError,
  ConnectionError,
  HttpError,
  IncompleteStreamError,
  InferenceClientHubApiError,
  InferenceClientProviderApiError,
  InferenceClientProviderOutputError,
  InferenceClientRoutingError,
  InferenceClient,
  InferenceError,
  InputError,
  MalformedEventError,
  ModelLoadingError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  TimeoutError,
  ValidationError,
} from "../../src/index";
import { whole } from "../faults/raw-server";
import { routedFetch } from "../hardening/support";
import { clientOn, QUESTION, SECRET, useRawServer } from "./stream-support";

const raw = useRawServer();
const BRAND = Symbol.for("hfkit.error.kinds");
const INIT = { status: 429, body: { error: "slow down" }, url: "http://x.test/v1/chat/completions" };

/** An error made by another copy of the package: not our prototype, only the brand. */
const foreign = (kinds: unknown): object => Object.assign(Object.create(Error.prototype) as object, { [BRAND]: kinds });

describe("instanceof across copies of the package: the brand", () => {
  const copy = foreign(["RateLimitError", "HttpError", "InferenceError"]);

  it("a foreign error is of each class its brand names, and of no other", () => {
    for (const Cls of [RateLimitError, HttpError, InferenceError]) expect(copy instanceof Cls, Cls.name).toBe(true);
    for (const Cls of [
      AuthenticationError,
      ServerError,
      ValidationError,
      InputError,
      TimeoutError,
      MalformedEventError,
    ])
      expect(copy instanceof Cls, Cls.name).toBe(false);
  });

  it("a brand that is not a list of kinds does not count (not a string that contains a kind)", () => {
    expect(foreign("RateLimitError") instanceof RateLimitError).toBe(false);
    expect(foreign("xRateLimitErrorx") instanceof InferenceError).toBe(false);
    expect(foreign({ includes: () => true }) instanceof InferenceError).toBe(false);
    expect(foreign([]) instanceof InferenceError).toBe(false);
  });

  it("null, undefined and primitives are of no class, and asking does not throw", () => {
    for (const value of [null, undefined, "RateLimitError", 42, true, Symbol("x")]) {
      expect(() => (value as unknown) instanceof InferenceError).not.toThrow();
      expect((value as unknown) instanceof InferenceError).toBe(false);
      expect((value as unknown) instanceof RateLimitError).toBe(false);
    }
  });

  it("an object on our prototype is ours without any brand (plain instanceof first)", () => {
    const bare = Object.create(RateLimitError.prototype) as object;
    expect(bare instanceof RateLimitError).toBe(true);
    expect(bare instanceof HttpError).toBe(true);
    expect(bare instanceof ServerError).toBe(false);
  });

  it("our errors carry the brand: their class, its parents, and the @huggingface/inference kind, in order", () => {
    const e = new RateLimitError("m", INIT);
    expect((e as unknown as Record<symbol, unknown>)[BRAND]).toEqual([
      "RateLimitError",
      "HttpError",
      "InferenceError",
      "InferenceClientProviderApiError",
    ]);
    expect((new TimeoutError("idle", 1) as unknown as Record<symbol, unknown>)[BRAND]).toEqual([
      "TimeoutError",
      "InferenceError",
    ]);
    expect((new MalformedEventError("m", "d") as unknown as Record<symbol, unknown>)[BRAND]).toEqual([
      "MalformedEventError",
      "InferenceError",
      "InferenceClientProviderOutputError",
    ]);
  });

  it("the brand is not enumerable: a spread copy of an error is no error of ours", () => {
    const e = new RateLimitError("m", INIT);
    expect({ ...e }).not.toBeInstanceOf(InferenceError);
    expect(Object.getOwnPropertySymbols(JSON.parse(JSON.stringify(e)) as object)).toEqual([]);
  });
});

describe("names and fields", () => {
  const made: Array<[string, () => Error]> = [
    ["InferenceError", () => new InferenceError("m")],
    ["InputError", () => new InputError("m", "top_p")],
    ["HttpError", () => new HttpError("m", INIT)],
    ["AuthenticationError", () => new AuthenticationError("m", INIT)],
    ["PermissionError", () => new PermissionError("m", INIT)],
    ["NotFoundError", () => new NotFoundError("m", INIT)],
    ["ValidationError", () => new ValidationError("m", INIT)],
    ["RateLimitError", () => new RateLimitError("m", INIT)],
    ["ServerError", () => new ServerError("m", INIT)],
    ["ModelLoadingError", () => new ModelLoadingError("m", { ...INIT, estimatedTime: 12.5 })],
    ["IncompleteStreamError", () => new IncompleteStreamError("m")],
    ["MalformedEventError", () => new MalformedEventError("m", "d")],
    ["TimeoutError", () => new TimeoutError("stall", 3)],
    ["ConnectionError", () => new ConnectionError("m")],
    ["AbortError", () => new AbortError("m")],
    ["InferenceClientHubApiError", () => new InferenceClientHubApiError("m", INIT)],
    ["InferenceClientProviderApiError", () => new InferenceClientProviderApiError("m", INIT)],
    ["InferenceClientRoutingError", () => new InferenceClientRoutingError("m")],
    ["InferenceClientProviderOutputError", () => new InferenceClientProviderOutputError("m")],
  ];

  it.each(made)("%s: name is the class name, in String() and the stack", (name, make) => {
    const error = make();
    expect(error.name).toBe(name);
    expect(String(error)).toBe(`${name}: ${error.message}`);
    expect(error.stack?.startsWith(`${name}: ${error.message}`)).toBe(true);
    expect(error).toBeInstanceOf(Error);
  });

  it("InputError.field; ModelLoadingError.estimatedTime; TimeoutError.kind and timeoutMs; ConnectionError.url", () => {
    expect(new InputError("m", "messages[1].role").field).toBe("messages[1].role");
    expect(new InputError("m").field).toBeUndefined();
    expect(new ModelLoadingError("m", { ...INIT, estimatedTime: 12.5 }).estimatedTime).toBe(12.5);
    expect(new ModelLoadingError("m", INIT).estimatedTime).toBeUndefined();
    expect(new TimeoutError("first-chunk", 300)).toMatchObject({ kind: "first-chunk", timeoutMs: 300 });
    expect(new ConnectionError("m", { url: "http://h.test/x" }).url).toBe("http://h.test/x");
    expect(new ConnectionError("m").url).toBeUndefined();
  });

  it.each([
    ["deadline", 5, "The call did not complete within its timeout of 5 ms"],
    ["first-chunk", 300, "No answer arrived within firstChunkTimeout (300 ms)"],
    ["idle", 60000, "The server sent nothing for longer than idleTimeout (60000 ms)"],
    ["stall", 1, "The server sent no data for longer than stallTimeout (1 ms), only keep-alives"],
  ] as const)("TimeoutError %s: its text names the limit and its value", (kind, ms, message) => {
    expect(new TimeoutError(kind, ms).message).toBe(message);
  });

  it("a cause is kept when given, and no `cause` key is made when not", () => {
    const cause = new Error("socket hang up");
    expect(new ConnectionError("m", { cause }).cause).toBe(cause);
    expect(new HttpError("m", { ...INIT, cause }).cause).toBe(cause);
    expect(new MalformedEventError("m", "d", cause).cause).toBe(cause);
    for (const e of [new ConnectionError("m"), new ConnectionError("m", { url: "u" }), new HttpError("m", INIT)])
      expect(Object.hasOwn(e, "cause")).toBe(false);
  });
});

describe("what an HttpError records of the exchange", () => {
  it("made directly: POST unless told; the response's status and request id as @huggingface/inference shows them", () => {
    const e = new HttpError("m", INIT);
    expect(e.httpRequest).toEqual({ url: INIT.url, method: "POST", headers: undefined, body: undefined });
    expect(e.httpResponse).toEqual({ status: 429, requestId: "", body: INIT.body });
    expect(new HttpError("m", { ...INIT, method: "GET" }).httpRequest.method).toBe("GET");
    const inStream = new HttpError("m", {
      ...INIT,
      status: 422,
      httpStatus: 200,
      requestId: "r9",
      retryAfterMs: 1500,
      provider: "groq",
    });
    expect([
      inStream.status,
      inStream.httpResponse.status,
      inStream.httpResponse.requestId,
      inStream.requestId,
    ]).toEqual([422, 200, "r9", "r9"]);
    expect([inStream.retryAfterMs, inStream.provider, inStream.url]).toEqual([1500, "groq", INIT.url]);
  });

  it("made directly: a provider's error unless the Hub's; a routing error only when it says", () => {
    const provider = new HttpError("m", INIT);
    expect(provider).toBeInstanceOf(InferenceClientProviderApiError);
    expect(provider).not.toBeInstanceOf(InferenceClientHubApiError);
    expect(provider).not.toBeInstanceOf(InferenceClientRoutingError);
    const hub = new HttpError("m", { ...INIT, source: "hub" });
    expect(hub).toBeInstanceOf(InferenceClientHubApiError);
    expect(hub).not.toBeInstanceOf(InferenceClientProviderApiError);
    expect(new HttpError("m", { ...INIT, routing: true })).toBeInstanceOf(InferenceClientRoutingError);
    expect(new HttpError("m", { ...INIT, routing: false })).not.toBeInstanceOf(InferenceClientRoutingError);
  });

  it("a chat call's error over HTTP: POST, the headers with the token redacted, the body sent", async () => {
    raw().handle((_req, reply) =>
      whole(reply, 404, "application/json", JSON.stringify({ error: "Model o/m does not exist" })),
    );
    const error = (await clientOn(raw())
      .chatCompletion({ messages: QUESTION })
      .catch((e: unknown) => e)) as NotFoundError;
    expect(error).toBeInstanceOf(NotFoundError);
    expect(raw().requests[0]?.method).toBe("POST");
    expect(error.httpRequest.method).toBe("POST");
    expect(error.httpRequest.url).toBe(`${raw().url}/v1/chat/completions`);
    expect(error.httpRequest.headers?.Authorization).toBe("Bearer [redacted]");
    expect(error.httpRequest.body).toMatchObject({ messages: QUESTION });
  });

  it("a GET's error over HTTP (the Hub's provider mapping): GET, a Hub error", async () => {
    raw().handle((_req, reply) =>
      whole(reply, 404, "application/json", JSON.stringify({ error: "Repository not found" })),
    );
    const client = new InferenceClient(SECRET, { fetch: routedFetch(raw()), maxRetries: 0 });
    const error = (await client
      .textToImage({ model: "org/missing-model", provider: "fal-ai", inputs: "a cat" })
      .catch((e: unknown) => e)) as HttpError;
    expect(raw().requests.map((r) => [r.method, r.target.split("?")[0]])).toEqual([
      ["GET", "/api/models/org/missing-model"],
    ]);
    expect(error).toBeInstanceOf(InferenceClientHubApiError);
    expect(error.httpRequest.method).toBe("GET");
  });
});

describe("MalformedEventError.data", () => {
  it("keeps the first 64 KiB of what could not be parsed", () => {
    const text = "a".repeat(70_000);
    expect(new MalformedEventError("m", text).data).toBe("a".repeat(64 * 1024));
    expect(new MalformedEventError("m", "short").data).toBe("short");
  });

  it("redacts before it cuts: a key across the 64 KiB point leaves not even its start", () => {
    const key = "sk-ProviderKeyThatIsLongEnough-0123456789";
    const text = `${"a".repeat(64 * 1024 - 10)}${key} and more`;
    const e = new MalformedEventError(`bad: ${key}`, text, undefined, key);
    expect(e.data).toBe(`${"a".repeat(64 * 1024 - 10)}[redacted]`);
    expect(e.message).toBe("bad: [redacted]");
  });

  it("a long provider key (a 600-character JWT) across the 64 KiB point leaves not even its start", () => {
    const key = `eyJ${"k".repeat(600)}`;
    const text = `${"a".repeat(64 * 1024 - 10)}${key} and more`;
    const e = new MalformedEventError("bad", text, undefined, key);
    expect(e.data).toBe(`${"a".repeat(64 * 1024 - 10)}[redacted]`);
    expect(e.data).not.toContain("eyJ");
  });

  it("an HF token in the data is redacted even when the secret is another", () => {
    expect(new MalformedEventError("m", `x ${SECRET} y`, undefined, "other-secret").data).toBe("x [redacted] y");
  });
});
