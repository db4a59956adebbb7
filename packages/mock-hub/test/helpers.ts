import { afterEach, beforeEach, expect } from "vitest";
import { startMockHub, type MockHub, type StartOptions } from "../src/index.js";

export const QUESTION = [{ role: "user", content: "What is the capital of France?" }];

/** A fresh loopback hub per test, closed afterwards (lingering streams included). */
export function useHub(options: StartOptions = {}): () => MockHub {
  let hub: MockHub | undefined;
  beforeEach(async () => {
    hub = await startMockHub(options);
  });
  afterEach(async () => {
    await hub?.close();
    hub = undefined;
  });
  return () => {
    if (!hub) throw new Error("the hub is not started");
    return hub;
  };
}

export function postJson(url: string, body: unknown, headers: Record<string, string> = {}): Promise<Response> {
  return fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });
}

export function chatUrl(hub: MockHub, model: string): string {
  return `${hub.url}/models/${model}/v1/chat/completions`;
}

export function streamChat(hub: MockHub, model: string, extra: Record<string, unknown> = {}): Promise<Response> {
  return postJson(chatUrl(hub, model), { model: "tgi", messages: QUESTION, stream: true, ...extra });
}

/** The HF router's route: the model (`org/name[:provider]`) in the body. */
export function routerChat(hub: MockHub, model: string, extra: Record<string, unknown> = {}): Promise<Response> {
  return postJson(`${hub.url}/v1/chat/completions`, { model, messages: QUESTION, ...extra });
}

/** The `data` payloads of an event-stream text (any `data:` spacing). */
export function dataPayloads(text: string): string[] {
  return text
    .split(/\n\n/)
    .filter((block) => block.startsWith("data:"))
    .map((block) => block.replace(/^data: ?/, ""));
}

export function jsonEvents(text: string): Array<Record<string, any>> {
  return dataPayloads(text)
    .filter((data) => data !== "[DONE]")
    .map((data) => JSON.parse(data) as Record<string, any>);
}

/** The deltas of the chunks that have a choice. */
export function deltasOf(events: Array<Record<string, any>>): Array<Record<string, any>> {
  return events.filter((event) => event.choices?.length > 0).map((event) => event.choices[0].delta);
}

/** Every chunk: a non-empty `id`, `object`, `created`, `model`. */
export function expectChunkEnvelopes(events: Array<Record<string, any>>, model: string): void {
  for (const event of events) {
    expect(event).toMatchObject({ object: "chat.completion.chunk", created: 1735689600, model });
    expect(typeof event.id === "string" && event.id.length > 0).toBe(true);
  }
}

export function contentOf(text: string): string {
  return jsonEvents(text)
    .map((event) => event.choices?.[0]?.delta?.content ?? "")
    .join("");
}

export const TIMEOUT = Symbol("timeout");

/** One read, or TIMEOUT when nothing arrives within `ms` (how a test sees a body held open). */
export async function readOrTimeout(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  ms: number,
): Promise<ReadableStreamReadResult<Uint8Array> | typeof TIMEOUT> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timeout = new Promise<typeof TIMEOUT>((resolve) => (timer = setTimeout(() => resolve(TIMEOUT), ms)));
  try {
    return await Promise.race([reader.read(), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

/** Reads until `predicate` holds for the text so far (or the body ends). */
export async function readUntil(
  reader: ReadableStreamDefaultReader<Uint8Array>,
  predicate: (text: string) => boolean,
): Promise<string> {
  const decoder = new TextDecoder();
  let text = "";
  while (!predicate(text)) {
    const { done, value } = await reader.read();
    if (done) break;
    text += decoder.decode(value, { stream: true });
  }
  return text;
}

/** Polls until `condition()` holds; `ms` only turns a hang into a failure (a loaded machine is slow, not wrong). */
export async function waitFor(condition: () => boolean, ms = 10_000): Promise<void> {
  const deadline = Date.now() + ms;
  while (!condition()) {
    if (Date.now() > deadline) throw new Error("condition not met in time");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}
