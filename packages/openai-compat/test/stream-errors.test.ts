/**
 * An error a server sends inside a 200 stream after tokens (TGI's `{"error": …, "error_type": "overloaded"}`)
 * reaches OpenAI clients after those tokens, as OpenAI's error event, and the body then ends cleanly:
 * through the proxy and through the adapter, on chat completions and on the Responses API.
 */
import { once } from "node:events";
import { connect, type Socket } from "node:net";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { createHfFetch, startProxy } from "../src/index";
import { messages, within } from "./helpers";
import { chunk, chunkedHead, LAST_CHUNK, rawUpstream, readResponse } from "./raw-http";

const token = (content: string): string =>
  `data: ${JSON.stringify({ id: "", object: "chat.completion.chunk", created: 1, model: "tgi", system_fingerprint: "3.2.0-native", choices: [{ index: 0, delta: { role: "assistant", content }, logprobs: null, finish_reason: null }], usage: null })}\n\n`;
const OVERLOADED = 'data: {"error":"Model is overloaded","error_type":"overloaded"}\n\n';
const SSE_HEAD = chunkedHead(200, "text/event-stream");

/** How many tokens the client has read, and a wait for it to have read so many. */
class Progress {
  private count = 0;
  private waiters: [number, () => void][] = [];
  got(n = this.count + 1): void {
    this.count = Math.max(this.count, n);
    this.waiters = this.waiters.filter(([at, resolve]) => (at <= this.count ? void resolve() : true));
  }
  until(n: number): Promise<void> {
    return n <= this.count ? Promise.resolve() : new Promise((resolve) => this.waiters.push([n, resolve]));
  }
}

/** How the upstream writes "Hel", "lo" and the error: one TCP write, or each write once the client has read the token before. */
type Script = (socket: Socket, progress: Progress) => Promise<void>;
const SCRIPTS: [string, Script][] = [
  [
    "in one write",
    async (socket) => void socket.write(SSE_HEAD + chunk(token("Hel") + token("lo") + OVERLOADED) + LAST_CHUNK),
  ],
  [
    "in writes spaced by the client's reads",
    async (socket, progress) => {
      socket.write(SSE_HEAD + chunk(token("Hel")));
      await progress.until(1);
      socket.write(chunk(token("lo")));
      await progress.until(2);
      socket.write(chunk(OVERLOADED) + LAST_CHUNK);
    },
  ],
];

let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** A TGI-like upstream: chat answers by `script`; any other route (the native Responses route) is a bare 404. */
async function upstream(script: Script, progress: Progress): Promise<string> {
  const up = await rawUpstream(async ({ line, socket }) => {
    if (!line.includes("/chat/completions"))
      return void socket.end("HTTP/1.1 404 Not Found\r\ncontent-length: 0\r\nconnection: close\r\n\r\n");
    await script(socket, progress);
  });
  cleanup.push(() => up.close());
  return up.url;
}

const clients = {
  "the proxy": async (url: string) => {
    const proxy = await startProxy({ target: url, maxRetries: 0 });
    cleanup.push(() => proxy.close());
    return new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: "hf_test", maxRetries: 0 });
  },
  "the adapter": async (url: string) =>
    new OpenAI({ baseURL: `${url}/v1`, apiKey: "hf_test", maxRetries: 0, fetch: createHfFetch({ maxRetries: 0 }) }),
};

/** Streams a chat (or a response), counting tokens; the text read, and what the loop threw. */
async function run(
  client: OpenAI,
  route: "chat" | "responses",
  progress: Progress,
): Promise<{ text: string; error: unknown }> {
  let text = "";
  const add = (piece: string): void => {
    text += piece;
    if (piece) progress.got();
  };
  try {
    if (route === "chat") {
      for await (const c of await client.chat.completions.create({ model: "tgi", messages, stream: true }))
        add(c.choices[0]?.delta?.content ?? "");
    } else {
      for await (const e of await client.responses.create({ model: "tgi", input: "Hi", stream: true }))
        add(e.type === "response.output_text.delta" ? e.delta : "");
    }
  } catch (error) {
    return { text, error };
  }
  return { text, error: undefined };
}

describe.each(Object.entries(clients))("an error after tokens, through %s", (_name, clientFor) => {
  describe.each(SCRIPTS)("sent %s", (_how, script) => {
    it.each(["chat", "responses"] as const)(
      "%s: the client reads the tokens, then OpenAI's APIError with the server's message",
      async (route) => {
        const progress = new Progress();
        const client = await clientFor(await upstream(script, progress));
        const { text, error } = await within(run(client, route, progress), 10_000);
        expect(text).toBe("Hello");
        expect(error).toBeInstanceOf(OpenAI.APIError);
        expect(error).not.toBeInstanceOf(OpenAI.APIConnectionError);
        expect((error as Error).message).toContain("Model is overloaded");
      },
    );
  });
});

describe.each(SCRIPTS)("the proxy's raw answer to an error after tokens sent %s", (_how, script) => {
  it("is the tokens, OpenAI's error event, and a clean end of the chunked body", async () => {
    const progress = new Progress();
    const proxy = await startProxy({ target: await upstream(script, progress), maxRetries: 0 });
    cleanup.push(() => proxy.close());
    const { port } = new URL(proxy.url);
    const socket = connect(Number(port), "127.0.0.1");
    cleanup.push(() => socket.destroy());
    await once(socket, "connect");
    let seen = "";
    socket.on("data", (c: Buffer) => progress.got((seen += c.toString("latin1")).split('"content":').length - 1));
    const response = readResponse(socket);
    const body = JSON.stringify({ model: "tgi", messages, stream: true });
    socket.write(
      `POST /v1/chat/completions HTTP/1.1\r\nhost: 127.0.0.1:${port}\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\n\r\n${body}`,
    );
    const res = await within(response, 10_000);
    expect(res.status).toBe(200);
    const events = res.text.split("\n\n").filter(Boolean);
    expect(events.map((e) => JSON.parse(e.slice("data: ".length)) as Record<string, unknown>)).toEqual([
      expect.objectContaining({
        choices: [expect.objectContaining({ delta: expect.objectContaining({ content: "Hel" }) })],
      }),
      expect.objectContaining({
        choices: [expect.objectContaining({ delta: expect.objectContaining({ content: "lo" }) })],
      }),
      {
        error: expect.objectContaining({
          message: expect.stringContaining("Model is overloaded"),
          type: "rate_limit_error",
        }),
      },
    ]);
  });
});
