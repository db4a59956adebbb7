// In-memory SSE bodies shaped like TGI 3.2's chat stream (the bytes @hfkit/mock-hub sends), the floor,
// and eventsource-parser alone (the parser most clients are built on; hfkit reads events itself).
import { createParser } from "eventsource-parser";

const WORDS = ["The", " capital", " of", " France", " is", " Paris."];
const encoder = new TextEncoder();

/** One chat chunk event, byte for byte as TGI 3.2 frames it. */
export function chunkEvent(i, finish = false) {
  const content = finish ? "" : WORDS[i % WORDS.length];
  return (
    `data: {"object":"chat.completion.chunk","id":"","created":1735689600,"model":"hfkit/tgi-3.2",` +
    `"system_fingerprint":"3.2.0-sha-74cf4a9","choices":[{"index":0,"delta":{"role":"assistant",` +
    `"content":${JSON.stringify(content)}},"logprobs":null,"finish_reason":${finish ? '"stop"' : "null"}}],"usage":null}\n\n`
  );
}

export const DONE_EVENT = "data: [DONE]\n\n";

/** `events` events (the last one finishing the answer, then `[DONE]`) as network chunks. */
export function sseChunks(events, shape) {
  const texts = [];
  for (let i = 0; i < events - 1; i++) texts.push(chunkEvent(i));
  texts.push(chunkEvent(events - 1, true) + DONE_EVENT);
  if (shape === "event") return texts.map((t) => encoder.encode(t));
  const all = encoder.encode(texts.join(""));
  const chunks = [];
  // 16 KB network reads cut events (and their JSON) anywhere, as a socket does.
  for (let at = 0; at < all.length; at += 16 * 1024) chunks.push(all.subarray(at, at + 16 * 1024));
  return chunks;
}

/** A body that hands out one chunk per read, like a socket that always has the next one ready. */
export function bodyOf(chunks) {
  let i = 0;
  return new ReadableStream({
    pull(controller) {
      if (i < chunks.length) controller.enqueue(chunks[i++]);
      else controller.close();
    },
  });
}

export function sseResponse(body) {
  return new Response(body, {
    status: 200,
    headers: { "content-type": "text/event-stream", "x-request-id": "bench-1" },
  });
}

/** A `fetch` that answers every request with the SSE body `makeBody()` returns. */
export function fetchServing(makeBody) {
  const fetch = async () => sseResponse(makeBody());
  return fetch;
}

/** The floor: decode, split on blank lines, JSON.parse — nothing a client could skip. */
export async function* floorStream(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return;
    buffer += decoder.decode(value, { stream: true });
    let end;
    while ((end = buffer.indexOf("\n\n")) !== -1) {
      const event = buffer.slice(0, end);
      buffer = buffer.slice(end + 2);
      const data = event.slice(event.charCodeAt(5) === 32 ? 6 : 5);
      if (data === "[DONE]") return;
      yield JSON.parse(data);
    }
  }
}

/** eventsource-parser, JSON.parse and nothing else, as an async generator. */
export async function* parserStream(body) {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  const parsed = [];
  let ended = false;
  const parser = createParser({
    onEvent: (event) => {
      if (event.data === "[DONE]") ended = true;
      else parsed.push(JSON.parse(event.data));
    },
  });
  while (!ended) {
    const { done, value } = await reader.read();
    if (done) return;
    parser.feed(decoder.decode(value, { stream: true }));
    yield* parsed;
    parsed.length = 0;
  }
}
