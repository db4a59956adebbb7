import { once } from "node:events";
import { createServer, type IncomingMessage, type Server } from "node:http";
import { type AddressInfo, connect, type Socket } from "node:net";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createProxy, startProxy } from "../src/index";
import { messages, useHub, within } from "./helpers";
import { drainedOrClosed, type RawResponse, readResponse } from "./raw-http";

const MB = 1024 * 1024;
const ctx = useHub();
let proxy: Awaited<ReturnType<typeof startProxy>>;
let port: number;

beforeAll(async () => {
  proxy = await startProxy({ target: ctx.hub.url, maxRetries: 0 });
  port = (proxy.server.address() as AddressInfo).port;
});
afterAll(() => proxy.close());

const unhandled: unknown[] = [];
const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
beforeAll(() => void process.on("unhandledRejection", onUnhandled));
afterAll(() => void process.off("unhandledRejection", onUnhandled));
afterEach(() => expect(unhandled.splice(0)).toEqual([]));

/** The head of a raw HTTP/1.1 request to the proxy under test (or to `to`). */
function head(headers: Record<string, string | number>, path = "/v1/chat/completions", to = port): string {
  const lines = Object.entries({ host: `127.0.0.1:${to}`, "content-type": "application/json", ...headers }).map(
    ([k, v]) => `${k}: ${v}`,
  );
  return `POST ${path} HTTP/1.1\r\n${lines.join("\r\n")}\r\n\r\n`;
}

async function open(to = port): Promise<Socket> {
  const socket = connect(to, "127.0.0.1");
  await once(socket, "connect");
  return socket;
}

/** POSTs `body` to the proxy under test over a fresh socket. */
async function post(body: string, headers: Record<string, string | number> = {}, to = port): Promise<RawResponse> {
  const socket = await open(to);
  const response = readResponse(socket);
  socket.write(head({ "content-length": Buffer.byteLength(body), ...headers }, undefined, to) + body);
  try {
    return await within(response, 10_000);
  } finally {
    socket.destroy();
  }
}

/**
 * Writes `chunk` (framed by `frame`) to `socket` as fast as it takes it, until a response byte arrives,
 * the socket fails, or `limit` bytes were written; then sends `last`. Resolves with the bytes of body written
 * before the first response byte, and the response.
 */
async function flood(
  socket: Socket,
  frame: (chunk: Buffer) => Buffer,
  limit: number,
  last = "",
): Promise<{ sent: number; response: RawResponse; ms: number }> {
  const response = readResponse(socket);
  let answered = false;
  let failed = false;
  socket.once("data", () => (answered = true));
  socket.once("error", () => (failed = true));
  socket.once("close", () => (failed = true));
  const chunk = Buffer.alloc(64 * 1024, "x");
  const started = performance.now();
  let sent = 0;
  while (!answered && !failed && sent < limit) {
    sent += chunk.length;
    if (!socket.write(frame(chunk))) await drainedOrClosed(socket);
  }
  if (!answered && !failed) socket.write(last);
  const res = await within(response, 30_000);
  return { sent, response: res, ms: performance.now() - started };
}

function nested(depth: number, open: string, close: string): string {
  return open.repeat(depth) + close.repeat(depth);
}

describe("per-request errors are contained", () => {
  it("a client that leaves mid-body crashes nothing: no unhandled rejection, and the next request is served", async () => {
    const request = once(proxy.server, "request") as Promise<[IncomingMessage]>;
    const socket = await open();
    socket.write(head({ "content-length": 1000 }) + '{"model":');
    const [req] = await within(request);
    const closed = new Promise((resolve) => req.once("close", resolve));
    socket.destroy();
    await within(closed);
    // Unhandled rejections are reported once the microtasks of the failing turn have run: give them a few turns.
    await new Promise((r) => setTimeout(r, 100));
    expect(unhandled).toEqual([]);
    const next = await post(JSON.stringify({ model: "hfkit/tgi-3.2", messages, max_tokens: 1 }));
    expect(next.status).toBe(200);
    expect(JSON.parse(next.text).object).toBe("chat.completion");
  });

  it("an unexpected error inside a request becomes a 500 JSON error, and the proxy keeps serving", async () => {
    const warnings: string[] = [];
    const logger = { warn: (message: string) => void warnings.push(message) };
    const broken = await startProxy({ target: ctx.hub.url, models: 42 as unknown as string[], logger });
    try {
      const socket = await open((broken.server.address() as AddressInfo).port);
      const response = readResponse(socket);
      const to = (broken.server.address() as AddressInfo).port;
      socket.write(`GET /v1/models HTTP/1.1\r\nhost: 127.0.0.1:${to}\r\n\r\n`);
      const res = await within(response);
      socket.destroy();
      expect(res.status).toBe(500);
      expect(JSON.parse(res.text)).toEqual({
        error: { message: "The proxy failed to answer this request", type: "server_error", code: null },
      });
      expect(warnings).toEqual([expect.stringMatching(/^The proxy failed to answer GET \/v1\/models: TypeError/)]);
      const chat = await post(JSON.stringify({ model: "hfkit/tgi-3.2", messages, max_tokens: 1 }), {}, to);
      expect(chat.status).toBe(200);
    } finally {
      await broken.close();
    }
  });
});

describe("backpressure", { timeout: 30_000 }, () => {
  const EVENT = Buffer.from(
    `data: ${JSON.stringify({ id: "x", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { content: "x".repeat(16 * 1024) }, finish_reason: null }] })}\n\n`,
  );
  /** Far more than any buffer between the upstream and a paused client holds. */
  const FLOOD_LIMIT = 256 * MB;

  /** An upstream that streams events as fast as its socket takes them, counting the bytes `write()` accepted. */
  async function floodingUpstream(): Promise<{
    server: Server;
    url: string;
    produced: () => number;
    closed: Promise<void>;
  }> {
    let produced = 0;
    let markClosed: () => void;
    const closed = new Promise<void>((resolve) => (markClosed = resolve));
    const server = createServer((req, res) => {
      req.resume();
      req.on("end", async () => {
        res.writeHead(200, { "content-type": "text/event-stream" });
        res.on("close", () => markClosed());
        while (!res.destroyed && produced < FLOOD_LIMIT) {
          produced += EVENT.length;
          if (!res.write(EVENT)) await drainedOrClosed(res);
        }
        res.end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    return { server, url, produced: () => produced, closed };
  }

  it("a paused client stops the upstream read instead of growing the proxy's memory; resumed, it streams on", async () => {
    const upstream = await floodingUpstream();
    const flooded = await startProxy({ target: upstream.url, maxRetries: 0 });
    const to = (flooded.server.address() as AddressInfo).port;
    try {
      const client = await open(to);
      let received = 0;
      const firstBytes = once(client, "data");
      client.on("data", (c: Buffer) => (received += c.length));
      const body = JSON.stringify({ model: "m", messages, stream: true });
      client.write(head({ "content-length": Buffer.byteLength(body) }, undefined, to) + body);
      await within(firstBytes, 10_000);
      client.pause();
      await new Promise((r) => setTimeout(r, 1000));
      const afterOne = upstream.produced();
      await new Promise((r) => setTimeout(r, 1000));
      const afterTwo = upstream.produced();
      console.info(
        `upstream bytes with the client paused: ${afterOne} after 1 s, ${afterTwo} after 2 s (client had read ${received})`,
      );
      // Only the socket and stream buffers on the way fill up (a few MB on loopback), then the upstream waits.
      expect(afterTwo).toBeLessThan(64 * MB);
      expect(afterTwo - afterOne).toBeLessThan(2 * MB);
      client.resume();
      for (let i = 0; i < 200 && upstream.produced() < afterTwo + 16 * MB; i++)
        await new Promise((r) => setTimeout(r, 25));
      expect(upstream.produced()).toBeGreaterThanOrEqual(afterTwo + 16 * MB);
      expect(received).toBeGreaterThan(afterTwo);
      client.destroy();
      await within(upstream.closed);
    } finally {
      await flooded.close();
      upstream.server.closeAllConnections();
      upstream.server.close();
    }
  });
});

describe("the body cap", { timeout: 30_000 }, () => {
  it("a declared content-length over the cap gets 413 at once, and the body is not read", async () => {
    const request = once(proxy.server, "request") as Promise<[IncomingMessage]>;
    const socket = await open();
    socket.write(head({ "content-length": 300 * MB }));
    const { sent, response, ms } = await flood(socket, (c) => c, 300 * MB);
    socket.destroy();
    const [req] = await request;
    const bytesRead = req.socket.bytesRead;
    console.info(
      `content-length 300 MB: 413 after the client wrote ${sent} bytes of body, in ${ms.toFixed(0)} ms; the proxy read ${bytesRead} bytes`,
    );
    expect(sent).toBeLessThan(32 * MB);
    expect(bytesRead).toBeLessThan(32 * MB);
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(JSON.parse(response.text).error).toEqual({
      message: "The request body is larger than 2097152 bytes",
      type: "invalid_request_error",
      code: null,
    });
    expect(ctx.hub.requests).toHaveLength(0);
  });

  it("a chunked body streaming past the cap gets 413 as soon as it passes it", async () => {
    const request = once(proxy.server, "request") as Promise<[IncomingMessage]>;
    const socket = await open();
    socket.write(head({ "transfer-encoding": "chunked" }));
    const chunked = (c: Buffer): Buffer =>
      Buffer.concat([Buffer.from(`${c.length.toString(16)}\r\n`), c, Buffer.from("\r\n")]);
    const { sent, response, ms } = await flood(socket, chunked, 300 * MB, "0\r\n\r\n");
    socket.destroy();
    const [req] = await request;
    const bytesRead = req.socket.bytesRead;
    console.info(
      `chunked: 413 after the client wrote ${sent} bytes of body (cap 2 MB), in ${ms.toFixed(0)} ms; the proxy read ${bytesRead} bytes`,
    );
    expect(sent).toBeGreaterThan(2 * MB);
    expect(sent).toBeLessThan(32 * MB);
    expect(bytesRead).toBeGreaterThan(2 * MB);
    expect(bytesRead).toBeLessThan(32 * MB);
    expect(response.status).toBe(413);
    expect(response.headers.connection).toBe("close");
    expect(ctx.hub.requests).toHaveLength(0);
  });

  it("a body at the cap is read and answered", async () => {
    const capped = await startProxy({ target: ctx.hub.url, maxRetries: 0, maxBodyBytes: 4096 });
    const to = (capped.server.address() as AddressInfo).port;
    try {
      const base = JSON.stringify({ model: "hfkit/tgi-3.2", messages, max_tokens: 1 });
      const atCap = base.slice(0, -1) + " ".repeat(4096 - base.length) + "}";
      expect(Buffer.byteLength(atCap)).toBe(4096);
      expect((await post(atCap, {}, to)).status).toBe(200);
      expect((await post(atCap.slice(0, -1) + " }", {}, to)).status).toBe(413);
    } finally {
      await capped.close();
    }
  });
});

describe("the JSON depth limit", { timeout: 30_000 }, () => {
  it.each([
    ["arrays", nested(200_000, "[", "]")],
    [
      "objects inside a chat body",
      `{"model":"hfkit/tgi-3.2","messages":${JSON.stringify(messages)},"x":${nested(200_000, '{"a":', "}").replace(/\{"a":\}/, '{"a":1}')}}`,
    ],
  ])(
    "a body of %s nested 200,000 deep gets a 400 before any parse, fast, with no upstream request",
    async (_, body) => {
      const started = performance.now();
      const res = await post(body);
      const ms = performance.now() - started;
      console.info(`depth 200,000 (${body.length} bytes): ${res.status} in ${ms.toFixed(0)} ms`);
      expect(res.status).toBe(400);
      expect(JSON.parse(res.text).error).toEqual({
        message: "The request body nests deeper than 64 levels",
        type: "invalid_request_error",
        code: null,
      });
      expect(ms).toBeLessThan(5000);
      expect(ctx.hub.requests).toHaveLength(0);
    },
  );

  it("counts only brackets outside strings (escapes included), and lets 64 levels through", async () => {
    const content = `${"[{".repeat(500)}\\"\\\\${"{".repeat(100)}\\\\`;
    const deepString = `{"model":"hfkit/tgi-3.2","messages":[{"role":"user","content":"${content}"}],"max_tokens":1}`;
    expect(JSON.parse(deepString).messages[0].content).toContain("[{[{");
    expect((await post(deepString)).status).toBe(200);
    const sixtyFour = `{"model":"hfkit/tgi-3.2","messages":${JSON.stringify(messages)},"max_tokens":1,"x":${nested(63, "[", "]")}}`;
    const res = await post(sixtyFour);
    expect(JSON.parse(res.text).error?.message ?? "").not.toMatch(/nests deeper/);
    const sixtyFive = `{"model":"hfkit/tgi-3.2","messages":${JSON.stringify(messages)},"max_tokens":1,"x":${nested(64, "[", "]")}}`;
    expect((await post(sixtyFive)).status).toBe(400);
  });
});

describe("errors map to OpenAI's statuses by the SDK's types", () => {
  it("a model id that walks out of the target is a 400 invalid_request_error, with no upstream request", async () => {
    const res = await post(JSON.stringify({ model: "../../admin", messages }));
    expect(res.status).toBe(400);
    expect(JSON.parse(res.text).error.type).toBe("invalid_request_error");
    expect(ctx.hub.requests).toHaveLength(0);
  });

  it("an unreachable target is a 502 upstream_error", async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const deadPort = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve));
    const dead = await startProxy({ target: `http://127.0.0.1:${deadPort}`, maxRetries: 0 });
    try {
      const res = await post(JSON.stringify({ model: "m", messages }), {}, (dead.server.address() as AddressInfo).port);
      expect(res.status).toBe(502);
      expect(JSON.parse(res.text).error.type).toBe("upstream_error");
    } finally {
      await dead.close();
    }
  });
});

describe("tokens", () => {
  it("holds no token of its own: an Authorization in `headers` is refused, and a request without one goes without one", async () => {
    expect(() => createProxy({ target: ctx.hub.url, headers: { AUTHORIZATION: "Bearer hf_operator" } })).toThrow(
      /no token of its own/,
    );
    const withHeaders = await startProxy({ target: ctx.hub.url, maxRetries: 0, headers: { "x-extra": "1" } });
    try {
      const to = (withHeaders.server.address() as AddressInfo).port;
      const body = JSON.stringify({ model: "hfkit/tgi-3.2", messages, max_tokens: 1 });
      expect((await post(body, {}, to)).status).toBe(200);
      expect(ctx.hub.requests.at(-1)?.headers.authorization).toBeUndefined();
      expect(ctx.hub.requests.at(-1)?.headers["x-extra"]).toBe("1");
      expect((await post(body, { authorization: "Bearer hf_caller" }, to)).status).toBe(200);
      expect(ctx.hub.requests.at(-1)?.headers.authorization).toBe("Bearer hf_caller");
    } finally {
      await withHeaders.close();
    }
  });
});
