import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startProxy } from "../src/index";
import { messages, TEXT, useHub, within } from "./helpers";

const ctx = useHub();
const TOKEN = "hf_secret_caller_token";
type Proxy = Awaited<ReturnType<typeof startProxy>>;
let json: Proxy;
let text: Proxy;
let off: Proxy;
let router: Proxy;
const lines: Record<"json" | "text" | "off" | "router", string[]> = { json: [], text: [], off: [], router: [] };

beforeAll(async () => {
  const start = (log: "json" | "text" | "off") =>
    startProxy({
      target: ctx.hub.url,
      maxRetries: 0,
      log,
      logTo: (line) => lines[log].push(line),
      models: ["hfkit/tgi-3.2"],
    });
  [json, text, off] = await Promise.all([start("json"), start("text"), start("off")]);
  // The router is the mock hub; its provider list fails over before the first token.
  const failover = {
    target: "https://router.huggingface.co",
    routerUrl: ctx.hub.url,
    provider: ["together", "novita"],
    maxRetries: 0,
  };
  router = await startProxy({ ...failover, log: "json", logTo: (line) => lines.router.push(line) });
});
afterAll(() => Promise.all([json.close(), text.close(), off.close(), router.close()]));

function post(proxy: Proxy, path: string, body: unknown): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const headers = { "content-type": "application/json", authorization: `Bearer ${TOKEN}` };
    const req = request(`${proxy.url}${path}`, { method: "POST", headers }, (res) => {
      let out = "";
      res.setEncoding("utf8").on("data", (c: string) => (out += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text: out }));
    });
    req.on("error", reject);
    req.end(typeof body === "string" ? body : JSON.stringify(body));
  });
}

/** The next log line of `log` (it is written once the answer is sent, maybe after the client read it). */
async function nextLine(log: "json" | "text" | "router", seen: number): Promise<string> {
  await within(
    (async () => {
      while (lines[log].length <= seen) await new Promise((r) => setTimeout(r, 5));
    })(),
  );
  expect(lines[log]).toHaveLength(seen + 1);
  return lines[log][seen]!;
}

async function logged(
  body: unknown,
  path = "/v1/chat/completions",
): Promise<{ status: number; entry: Record<string, unknown> }> {
  const seen = lines.json.length;
  const { status } = await within(post(json, path, body));
  return { status, entry: JSON.parse(await nextLine("json", seen)) as Record<string, unknown> };
}

describe("the proxy's log", () => {
  it("a streamed request: one JSON line with its route, model, status, first chunk, duration and tokens", async () => {
    const body = { model: "hfkit/tgi-3.2", messages, stream: true, stream_options: { include_usage: true } };
    const { status, entry } = await logged(body);
    expect(status).toBe(200);
    expect(entry).toMatchObject({
      method: "POST",
      route: "/v1/chat/completions",
      model: "hfkit/tgi-3.2",
      status: 200,
      stream: true,
    });
    expect(entry.firstChunkMs).toEqual(expect.any(Number));
    expect(entry.durationMs).toBeGreaterThanOrEqual(entry.firstChunkMs as number);
    expect(entry.tokens).toEqual({ input: expect.any(Number), output: expect.any(Number) });
    expect((entry.tokens as { output: number }).output).toBeGreaterThan(0);
    expect(entry.error).toBeUndefined();
    expect(new Date(entry.time as string).getTime()).toBeGreaterThan(Date.now() - 60_000);
  });

  it("a whole request through the router: the provider that served it after a failover, no first chunk", async () => {
    ctx.hub.inject({ type: "serverError", status: 502 }, { model: "hfkit/router-multi", times: 1 });
    const { status } = await within(post(router, "/v1/chat/completions", { model: "hfkit/router-multi", messages }));
    const entry = JSON.parse(await nextLine("router", 0)) as Record<string, unknown>;
    expect(status).toBe(200);
    expect(entry).toMatchObject({
      route: "/v1/chat/completions",
      model: "hfkit/router-multi",
      status: 200,
      stream: false,
      provider: "novita",
    });
    expect(entry.error).toBeUndefined();
    expect(entry.firstChunkMs).toBeUndefined();
    expect(entry.tokens).toEqual({ input: expect.any(Number), output: expect.any(Number) });
  });

  it("a failed upstream: the status sent and the error's class", async () => {
    ctx.hub.inject({ type: "serverError", status: 502 }, { model: "hfkit/tgi-3.2" });
    const { status, entry } = await logged({ model: "hfkit/tgi-3.2", messages, stream: true });
    expect(status).toBe(502);
    expect(entry).toMatchObject({ status: 502, error: "ServerError", model: "hfkit/tgi-3.2" });
  });

  it("a Responses request, streamed, whole and failed: its route, first chunk, tokens and error", async () => {
    const input = messages[0]!.content;
    const streamed = await logged({ model: "hfkit/tgi-3.2", input, stream: true }, "/v1/responses");
    expect(streamed.status).toBe(200);
    expect(streamed.entry).toMatchObject({ route: "/v1/responses", model: "hfkit/tgi-3.2", status: 200, stream: true });
    expect(streamed.entry.firstChunkMs).toEqual(expect.any(Number));
    const whole = await logged({ model: "hfkit/tgi-3.2", input }, "/v1/responses");
    expect(whole.entry).toMatchObject({ route: "/v1/responses", status: 200, stream: false });
    for (const { entry } of [streamed, whole])
      expect((entry.tokens as { output: number } | undefined)?.output).toBeGreaterThan(0);
    ctx.hub.inject({ type: "serverError", status: 503 }, { model: "hfkit/tgi-3.2" });
    expect((await logged({ model: "hfkit/tgi-3.2", input }, "/v1/responses")).entry).toMatchObject({
      status: 503,
      error: "ServerError",
    });
  });

  it("a stream that stalls after its first tokens: the 200 already sent, the timeout's class and kind", async () => {
    const got: string[] = [];
    const strict = await startProxy({
      target: ctx.hub.url,
      maxRetries: 0,
      stallTimeout: 150,
      log: "json",
      logTo: (line) => got.push(line),
    });
    try {
      ctx.hub.inject({ type: "stall", afterChunks: 2 }, { model: "hfkit/tgi-3.2" });
      const { status, text: body } = await within(
        post(strict, "/v1/chat/completions", { model: "hfkit/tgi-3.2", messages, stream: true }),
      );
      expect([status, body]).toEqual([200, expect.stringContaining('"error"')]);
      await within(
        (async () => {
          while (got.length === 0) await new Promise((r) => setTimeout(r, 5));
        })(),
      );
      expect(JSON.parse(got[0]!)).toMatchObject({
        status: 200,
        error: "TimeoutError",
        errorKind: "stall",
        firstChunkMs: expect.any(Number),
      });
    } finally {
      await strict.close();
    }
  });

  it("a refused request and an unknown route: their status and path, no call", async () => {
    expect(await logged("{not json")).toMatchObject({
      status: 400,
      entry: { status: 400, route: "/v1/chat/completions" },
    });
    expect((await logged({}, "/v2/nowhere?key=x")).entry).toMatchObject({ status: 404, route: "/v2/nowhere" });
    const bare = await logged("{not json", "/chat/completions/");
    expect(bare.entry).toMatchObject({ status: 400, route: "/v1/chat/completions" });
  });

  it("never logs the token, the prompt or the answer", async () => {
    const before = lines.json.length;
    await logged({ model: "hfkit/tgi-3.2", messages, stream: true });
    await logged({ model: "hfkit/tgi-3.2", messages });
    const log = lines.json.slice(before).join("\n");
    expect(log).toContain("hfkit/tgi-3.2");
    for (const secret of [TOKEN, "hf_secret", messages[0]!.content, "capital", TEXT, "Paris"])
      expect(log).not.toContain(secret);
  });

  it("text: one short line per request", async () => {
    const seen = lines.text.length;
    await within(
      post(text, "/v1/chat/completions", {
        model: "hfkit/tgi-3.2",
        messages,
        stream: true,
        stream_options: { include_usage: true },
      }),
    );
    const line = await nextLine("text", seen);
    expect(line).toMatch(
      /^\S+Z POST \/v1\/chat\/completions 200 \d+ms model=hfkit\/tgi-3\.2 first=\d+ms tokens=\d+\+\d+$/,
    );
    expect(line).not.toContain(TOKEN);
  });

  it("a model's control characters cannot forge a line", async () => {
    const seen = lines.text.length;
    await within(post(text, "/v1/chat/completions", { model: "x\nforged 200", messages }));
    expect((await nextLine("text", seen)).split("\n")).toHaveLength(1);
  });

  it("off: nothing", async () => {
    await within(post(off, "/v1/chat/completions", { model: "hfkit/tgi-3.2", messages, stream: true }));
    await within(post(off, "/v1/chat/completions", { model: "hfkit/tgi-3.2", messages }));
    await new Promise((r) => setTimeout(r, 50));
    expect(lines.off).toEqual([]);
  });

  it("refuses a log format it does not know", async () => {
    await expect(startProxy({ target: ctx.hub.url, log: "yaml" as "json" })).rejects.toThrow(
      /`log` must be "json", "text" or "off"/,
    );
  });
});
