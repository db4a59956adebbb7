import { readFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { createParser } from "eventsource-parser";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { chatCompletionStream, toReadableStream, toResponse } from "../src/index";

const TEXT = "The capital of France is Paris.";
const messages = [{ role: "user" as const, content: "What is the capital of France?" }];

let hub: MockHub;
let server: Server;
let url: string;

/** A web server as a user writes one: each request answered by `toResponse(chatCompletionStream(...))`, piped to the socket. */
beforeAll(async () => {
  hub = await startMockHub();
  server = createServer((req, res) => {
    const query = new URL(req.url ?? "/", "http://x").searchParams;
    const args = {
      model: query.get("model") ?? "hfkit/tgi-3.2",
      messages,
      ...(query.has("max_tokens") ? { max_tokens: Number(query.get("max_tokens")) } : {}),
    };
    const response = toResponse(chatCompletionStream(args, { baseUrl: hub.url, maxRetries: 0 }));
    res.writeHead(response.status, Object.fromEntries(response.headers));
    const reader = response.body!.getReader();
    res.on("close", () => void reader.cancel().catch(() => {}));
    void (async () => {
      for (;;) {
        const { done, value } = await reader.read();
        if (done || res.destroyed) return void res.end();
        res.write(value);
      }
    })();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise((resolve) => server.close(resolve));
  await hub.close();
});
beforeEach(() => hub.reset());

/** The SSE events of `text`, as a standard parser reads them. */
function eventsOf(text: string): string[] {
  const data: string[] = [];
  const parser = createParser({ onEvent: (event) => data.push(event.data) });
  parser.feed(text);
  return data;
}

const contentOf = (events: string[]): string =>
  events
    .filter((e) => e !== "[DONE]")
    .map(
      (e) => (JSON.parse(e) as { choices: Array<{ delta?: { content?: string } }> }).choices[0]?.delta?.content ?? "",
    )
    .join("");

async function settled(): Promise<number> {
  for (let i = 0; i < 100 && hub.openStreams() > 0; i++) await new Promise((r) => setTimeout(r, 20));
  return hub.openStreams();
}

describe("toResponse through real loopback HTTP", () => {
  it.each(["hfkit/tgi-2.0", "hfkit/tgi-3.2", "hfkit/vllm"])(
    "%s: OpenAI's framing, data: [DONE] last, SSE headers",
    async (model) => {
      const res = await fetch(`${url}/?model=${model}`);
      expect(res.status).toBe(200);
      expect(res.headers.get("content-type")).toBe("text/event-stream");
      expect(res.headers.get("cache-control")).toBe("no-cache");
      const text = await res.text();
      expect(
        text
          .split("\n\n")
          .slice(0, -1)
          .every((e) => /^data: (\{.*\}|\[DONE\])$/.test(e)),
      ).toBe(true);
      expect(text.endsWith("}\n\ndata: [DONE]\n\n")).toBe(true);
      const events = eventsOf(text);
      expect(events.at(-1)).toBe("[DONE]");
      expect(contentOf(events)).toContain(TEXT);
      expect(await settled()).toBe(0);
    },
  );

  it("an error mid-stream: the chunks so far, one error event, then the end (no [DONE])", async () => {
    hub.inject({ type: "truncate", afterChunks: 2 }, { model: "hfkit/tgi-3.2" });
    const events = eventsOf(await (await fetch(`${url}/?model=hfkit/tgi-3.2`)).text());
    expect(contentOf(events.slice(0, -1))).toBe("The capital");
    const last = JSON.parse(events.at(-1)!) as { error: { message: string; type: string; code: string } };
    expect(last.error).toMatchObject({ type: "server_error", code: "IncompleteStreamError" });
    expect(events).not.toContain("[DONE]");
  });

  it("an error TGI sends inside the stream: an error event with its status and type", async () => {
    const events = eventsOf(await (await fetch(`${url}/?model=hfkit/tgi-3.2&max_tokens=5000`)).text());
    expect(events).toHaveLength(1);
    const { error } = JSON.parse(events[0]!) as { error: Record<string, unknown> };
    expect(error).toMatchObject({ type: "invalid_request_error", status: 422, param: null });
    expect(error.message).toContain("must be <= 4096");
  });

  it("a client that leaves: the ReadableStream is cancelled, the iterator returned, the upstream socket closed", async () => {
    hub.inject({ type: "stall", afterChunks: 1 }, { model: "hfkit/tgi-3.2" });
    const controller = new AbortController();
    const res = await fetch(`${url}/?model=hfkit/tgi-3.2`, { signal: controller.signal });
    const reader = res.body!.getReader();
    const first = new TextDecoder().decode((await reader.read()).value);
    expect(first.startsWith("data: {")).toBe(true);
    expect(hub.openStreams()).toBe(1);
    controller.abort();
    await reader.cancel().catch(() => {});
    expect(await settled()).toBe(0);
  });
});

describe("toReadableStream and toResponse themselves", () => {
  it("read directly: the Response's body is the events; init's status and headers added", async () => {
    const stream = chatCompletionStream({ model: "hfkit/tgi-2.2", messages }, { baseUrl: hub.url, maxRetries: 0 });
    const res = toResponse(stream, { status: 201, headers: { "x-request": "1", "cache-control": "no-store" } });
    expect(res.status).toBe(201);
    expect(res.headers.get("x-request")).toBe("1");
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(res.headers.get("content-type")).toBe("text/event-stream");
    expect(contentOf(eventsOf(await res.text()))).toBe(TEXT);
  });

  it("cancel calls the iterator's return(), even while a next() is pending", async () => {
    let returned = 0;
    const iterable: AsyncIterable<object> = {
      [Symbol.asyncIterator]: () => {
        let n = 0;
        return {
          next: () =>
            n++ === 0 ? Promise.resolve({ done: false, value: { n } }) : new Promise<IteratorResult<object>>(() => {}),
          return: () => {
            returned++;
            return Promise.resolve({ done: true, value: undefined });
          },
        };
      },
    };
    const reader = toReadableStream(iterable).getReader();
    expect(new TextDecoder().decode((await reader.read()).value)).toBe('data: {"n":1}\n\n');
    await reader.cancel();
    expect(returned).toBe(1);
  });

  it("an iterable that throws at once: one error event, then the end", async () => {
    // eslint-disable-next-line require-yield
    async function* failing(): AsyncGenerator<object> {
      throw Object.assign(new Error("rate limited"), { name: "RateLimitError", status: 429 });
    }
    const text = await new Response(toReadableStream(failing())).text();
    expect(JSON.parse(text.slice(6))).toEqual({
      error: { message: "rate limited", type: "rate_limit_error", code: "RateLimitError", param: null, status: 429 },
    });
    expect(text.endsWith("\n\n")).toBe(true);
  });

  it("uses web APIs only: no Node import or global in the source", () => {
    const source = readFileSync(new URL("../src/api/streamResponse.ts", import.meta.url), "utf8");
    expect(source).not.toMatch(/\bimport\b|\brequire\(|\bprocess\b|\bBuffer\b/);
  });
});
