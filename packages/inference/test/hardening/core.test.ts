/**
 * Round three on the chat core, through real HTTP on loopback (raw `node:net` servers): every read bounded
 * whatever its route, blanks are not data, detection state never lets one token's 401 fail another's call, the
 * stream iterator answers overlapping `next()` calls in order, and greedy decoding is one rule on every route.
 */
import { Readable } from "node:stream";
import type { ReadableStream as NodeWebStream } from "node:stream/web";
import { describe, expect, it } from "vitest";
import {
  AuthenticationError,
  type ChatCompletionStreamOutput,
  collectStream,
  InferenceClient,
  MalformedEventError,
  TimeoutError,
} from "../../src/index";
import { backendMemory } from "../../src/targets/endpoints/detect";
import { chunked, type RawReply, whole } from "../faults/raw-server";
import { within } from "../faults/support";
import { drain, HF_SECRET, until, useRawServer } from "./support";

const SSE: Array<[string, string]> = [["Content-Type", "text/event-stream"]];
const QUESTION = [{ role: "user" as const, content: "hi" }];
const hub = useRawServer(() => {
  backendMemory.clear();
  backendMemory.detections.clear();
});

const chunk = (content: string, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: "c", object: "chat.completion.chunk", created: 1, model: "m", choices: [{ index: 0, delta: { role: "assistant", content }, finish_reason: finish }] })}\n\n`;

/** Writes `piece` until the client goes away or `maxBytes` are written; then ends the body. */
async function pour(
  reply: RawReply,
  write: (piece: string) => boolean,
  piece: string,
  maxBytes: number,
  end: () => void,
): Promise<void> {
  for (let sent = 0; sent < maxBytes && !reply.closed; sent += piece.length) if (!write(piece)) await reply.drained();
  end();
}

describe("class 3: every read is bounded, whatever its route", () => {
  it("one event's cap counts its comment lines: data lines with comments between them past 32 MB are a MalformedEventError", async () => {
    hub.server.handle(async (_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(chunk("Hel"));
      const line = `data: ${"x".repeat(4000)}\n: keep-alive\n`;
      await pour(reply, body.chunk, line, 40 * 1048576, body.end);
    });
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, backend: "openai" });
    const { seen, error } = await drain(
      client.chatCompletionStream({ messages: QUESTION }),
      60_000,
      "the endless event",
    );
    expect(seen).toEqual(["Hel"]);
    expect(error).toBeInstanceOf(MalformedEventError);
    expect((error as Error).message).toMatch(/larger than 32 MB/);
  });

  it("collectStream bounds what it collects: 33 MB of content is a MalformedEventError, not V8's Invalid string length", async () => {
    const piece = "y".repeat(1048576);
    async function* endless(): AsyncGenerator<ChatCompletionStreamOutput> {
      for (let i = 0; i < 40; i++)
        yield {
          id: "c",
          created: 1,
          model: "m",
          system_fingerprint: "",
          choices: [{ index: 0, delta: { role: "assistant", content: piece } }],
        } as ChatCompletionStreamOutput;
    }
    const error = await collectStream(endless()).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(MalformedEventError);
    expect((error as Error).message).toMatch(/collected from the stream is larger than 32 MB/);
  });

  it("a tool call's index from a server is not an array length: index 1e9 is a MalformedEventError, not a billion holes", async () => {
    async function* calls(): AsyncGenerator<ChatCompletionStreamOutput> {
      const delta = {
        role: "assistant",
        tool_calls: [{ index: 1e9, id: "t", type: "function", function: { name: "f", arguments: "{}" } }],
      };
      yield {
        id: "c",
        created: 1,
        model: "m",
        system_fingerprint: "",
        choices: [{ index: 0, delta, finish_reason: null }],
      } as unknown as ChatCompletionStreamOutput;
    }
    await expect(collectStream(calls())).rejects.toBeInstanceOf(MalformedEventError);
  });

  it("8 MB of blanks before a JSON answer: the answer is read (the start found in one pass over the bytes)", async () => {
    const answer = JSON.stringify({
      id: "a",
      object: "chat.completion",
      created: 1,
      model: "m",
      choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
    });
    hub.server.handle(async (_req, reply) => {
      const body = chunked(reply, 200, [["Content-Type", "application/json"]]);
      const blanks = " ".repeat(65536);
      for (let i = 0; i < 128 && !reply.closed; i++) if (!body.chunk(blanks)) await reply.drained();
      body.chunk(answer);
      body.end();
    });
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, backend: "openai" });
    const out = await client.chatCompletion({ messages: QUESTION });
    expect(out.choices[0]?.message.content).toBe("ok");
  });
});

describe("class 2: blanks are not data", () => {
  it("blanks trickled inside an event (no line ever ends) do not keep a stalled stream alive: TimeoutError stall, the token kept", async () => {
    hub.server.handle(async (_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(chunk("Hel"));
      body.chunk('data: {"choices":');
      while (!reply.closed) {
        body.chunk(" ");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    const client = new InferenceClient(HF_SECRET, {
      endpointUrl: hub.server.url,
      backend: "openai",
      stallTimeout: 400,
      idleTimeout: 60_000,
    });
    const { seen, error } = await drain(
      client.chatCompletionStream({ messages: QUESTION }),
      20_000,
      "the trickling event",
    );
    expect(seen).toEqual(["Hel"]);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).kind).toBe("stall");
  });

  it("blanks trickled inside a bare JSON answer under text/event-stream: TimeoutError stall", async () => {
    hub.server.handle(async (_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk('{"id":"a","choices":');
      while (!reply.closed) {
        body.chunk(" ");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    const client = new InferenceClient(HF_SECRET, {
      endpointUrl: hub.server.url,
      backend: "openai",
      stallTimeout: 400,
      idleTimeout: 60_000,
      firstChunkTimeout: 60_000,
    });
    const error = await within(
      client.chatCompletion({ messages: QUESTION }).catch((e: unknown) => e),
      20_000,
      "the trickling answer",
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).kind).toBe("stall");
  });
});

describe("class 4: state is per credential (backend detection)", () => {
  it("a 401 for one token during detection never fails a concurrent caller with a valid one", async () => {
    const GOOD = "hf_ValidTokenOfAnotherUser00000000";
    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    hub.server.handle(async (req, reply) => {
      if (req.headers.authorization === `Bearer ${HF_SECRET}`) {
        await held;
        return whole(
          reply,
          401,
          "application/json",
          JSON.stringify({ error: "Invalid credentials in Authorization header" }),
        );
      }
      whole(
        reply,
        200,
        "application/json",
        JSON.stringify({
          id: "a",
          object: "chat.completion",
          created: 1,
          model: "m",
          choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
        }),
      );
    });
    const bad = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url })
      .chatCompletion({ messages: QUESTION })
      .catch((e: unknown) => e);
    await until(() => hub.server.requests.length === 1, "the first detection");
    const good = new InferenceClient(GOOD, { endpointUrl: hub.server.url }).chatCompletion({ messages: QUESTION });
    release();
    expect(await bad).toBeInstanceOf(AuthenticationError);
    expect((await good).choices[0]?.message.content).toBe("ok");
  });
});

describe("class 10: the stream iterator answers overlapping next() calls", () => {
  it("a third next() made while two are pending gets its chunk as soon as it arrives", async () => {
    let sendRest!: () => void;
    const rest = new Promise<void>((resolve) => (sendRest = resolve));
    hub.server.handle(async (_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(chunk("a"));
      await rest;
      body.chunk(chunk("b") + chunk("c"));
      // the socket stays open: nothing more comes until the test ends
    });
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, backend: "openai" });
    const it = client.chatCompletionStream({ messages: QUESTION })[Symbol.asyncIterator]();
    const first = it.next();
    const second = it.next();
    expect((await first).value?.choices[0]?.delta?.content).toBe("a");
    const third = it.next();
    sendRest();
    const results = await within(Promise.all([second, third]), 4_000, "the second and third next()");
    expect(results.map((r) => r.value?.choices[0]?.delta?.content)).toEqual(["b", "c"]);
    await it.return?.(undefined);
  });
});

describe("class 10: greedy is one rule on every route", () => {
  it("textGeneration({ top_p: 0 }) on TGI's /generate sends do_sample: false and no top_p (TGI refuses top_p: 0 with a 422)", async () => {
    hub.server.handle((_req, reply) =>
      whole(reply, 200, "application/json", JSON.stringify([{ generated_text: "ok" }])),
    );
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url });
    await client.textGeneration({ inputs: "hi", parameters: { top_p: 0, max_new_tokens: 5 } });
    const sent = JSON.parse(hub.server.requests[0]!.body) as { parameters: Record<string, unknown> };
    expect(sent.parameters).toMatchObject({ do_sample: false, max_new_tokens: 5 });
    expect(sent.parameters).not.toHaveProperty("top_p");
  });

  it("textGeneration({ temperature: 0, top_p: 0.5 }) on /generate: do_sample false, no temperature, top_p kept", async () => {
    hub.server.handle((_req, reply) =>
      whole(reply, 200, "application/json", JSON.stringify([{ generated_text: "ok" }])),
    );
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url });
    await client.textGeneration({ inputs: "hi", parameters: { temperature: 0, top_p: 0.5 } });
    const sent = JSON.parse(hub.server.requests[0]!.body) as { parameters: Record<string, unknown> };
    expect(sent.parameters).toMatchObject({ do_sample: false, top_p: 0.5 });
    expect(sent.parameters).not.toHaveProperty("temperature");
  });
});

describe("a body that is not a web stream (node-fetch's) and [DONE] with any spacing", () => {
  /** A fetch whose answers carry a Node stream as their body, as node-fetch's do. */
  const nodeFetch = (async (url: string, init: RequestInit) => {
    const res = await fetch(url, init);
    return {
      ok: res.ok,
      status: res.status,
      url: res.url,
      headers: res.headers,
      body: Readable.fromWeb(res.body as unknown as NodeWebStream),
    };
  }) as unknown as typeof fetch;
  const REFUSED = "The response body is not a web ReadableStream (node-fetch?): pass a WHATWG fetch as `fetch`";

  it("a stream: refused with what to do, and its socket freed at once", async () => {
    let closed!: Promise<void>;
    hub.server.handle((_req, reply) => {
      closed = reply.closedPromise;
      chunked(reply, 200, SSE).chunk(chunk("Hel")); // the socket stays open
    });
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, backend: "openai", fetch: nodeFetch });
    await expect(client.chatCompletionStream({ messages: QUESTION }).next()).rejects.toThrow(REFUSED);
    await within(closed, 4_000, "the socket's close");
  });

  it("a whole answer: refused once, never retried as a lost connection", async () => {
    hub.server.handle((_req, reply) => whole(reply, 200, "application/json", JSON.stringify({ id: "a", choices: [] })));
    const client = new InferenceClient(HF_SECRET, {
      endpointUrl: hub.server.url,
      backend: "openai",
      fetch: nodeFetch,
      maxRetries: 2,
    });
    await expect(client.chatCompletion({ messages: QUESTION })).rejects.toThrow(REFUSED);
    expect(hub.server.requests).toHaveLength(1);
  });

  it("[DONE] with many blanks around it still completes the stream", async () => {
    hub.server.handle((_req, reply) => {
      const body = chunked(reply, 200, SSE);
      body.chunk(chunk("ok"));
      body.chunk(`data:${" ".repeat(12)}[DONE]${" ".repeat(12)}\n\n`); // no finish_reason: only [DONE] ends it
    });
    const client = new InferenceClient(HF_SECRET, { endpointUrl: hub.server.url, backend: "openai" });
    const seen: string[] = [];
    for await (const c of client.chatCompletionStream({ messages: QUESTION }))
      seen.push(c.choices[0]?.delta?.content ?? "");
    expect(seen).toEqual(["ok"]);
  });
});
