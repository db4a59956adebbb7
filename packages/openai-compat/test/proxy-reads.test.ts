/** Every upstream body the proxy reads itself (the target's model list) is read with a size cap and under its timeout. */
import { once } from "node:events";
import { request } from "node:http";
import type { Socket } from "node:net";
import { afterEach, describe, expect, it } from "vitest";
import { startProxy } from "../src/index";
import { MAX_MODELS_BYTES } from "../src/models";
import { within } from "./helpers";
import { chunk, chunkedHead, drainedOrClosed, LAST_CHUNK, rawUpstream } from "./raw-http";

let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** GETs `path` from the proxy: status and body text. */
function get(url: string, path: string): Promise<{ status: number; text: string }> {
  return new Promise((resolve, reject) => {
    const req = request(`${url}${path}`, (res) => {
      let text = "";
      res.setEncoding("utf8").on("data", (c: string) => (text += c));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
    });
    req.on("error", reject).end();
  });
}

/** Writes an endless-looking model list, as fast as the proxy reads it, until the socket closes or `limit` bytes; then closes the JSON. */
async function endlessList(socket: Socket, limit: number): Promise<void> {
  const piece = chunk(`{"id":"org/model","object":"model","created":0,"owned_by":"org"},`.repeat(1000));
  socket.write(chunkedHead(200, "application/json") + chunk('{"object":"list","data":['));
  for (let written = 0; written < limit && !socket.destroyed; written += piece.length) {
    if (!socket.write(piece)) await drainedOrClosed(socket);
  }
  if (!socket.destroyed) socket.write(chunk('{"id":"last","object":"model"}]}') + LAST_CHUNK);
}

describe("the proxy's GET /v1/models", { timeout: 30_000 }, () => {
  it("a target whose list passes the cap gets a 502 with OpenAI's error body, not the list", async () => {
    const up = await rawUpstream(({ socket }) => endlessList(socket, 2 * MAX_MODELS_BYTES));
    cleanup.push(() => up.close());
    const proxy = await startProxy({ target: `${up.url}/v1` });
    cleanup.push(() => proxy.close());
    const res = await within(get(proxy.url, "/v1/models"), 20_000);
    expect(res.status).toBe(502);
    expect(JSON.parse(res.text)).toEqual({
      error: {
        message: `The target's model list is larger than ${MAX_MODELS_BYTES} bytes; reading stopped there`,
        type: "upstream_error",
        code: null,
        param: null,
      },
    });
  });

  it("a list that stalls is cut at `timeout` (504), even through a fetch that ignores the signal, and its connection closed", async () => {
    let upstreamSocket: Socket | undefined;
    const up = await rawUpstream(({ socket }) => {
      upstreamSocket = socket;
      socket.write(chunkedHead(200, "application/json") + chunk('{"object":"list","data":['));
    });
    cleanup.push(() => up.close());
    const deaf = (url: string, init?: RequestInit): Promise<Response> => fetch(url, { ...init, signal: undefined });
    const proxy = await startProxy({ target: `${up.url}/v1`, timeout: 100, fetch: deaf });
    cleanup.push(() => proxy.close());
    const res = await within(get(proxy.url, "/v1/models"), 10_000);
    expect(res.status).toBe(504);
    expect(JSON.parse(res.text).error.message).toBe("The target did not list its models in time");
    if (!upstreamSocket!.closed) await within(once(upstreamSocket!, "close"), 10_000);
  });
});
