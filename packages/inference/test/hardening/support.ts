/**
 * What the round-three hardening tests share: a raw loopback server standing in for the HF router, the Hub and a
 * provider, and a fetch that sends those hosts to it and answers any other host itself, so that no test ever
 * sends a byte off this machine (a URL a provider names on another host is recorded, never fetched).
 */
import { inspect } from "node:util";
import { afterAll, afterEach, beforeAll, expect } from "vitest";
import type { ChatCompletionStreamOutput } from "../../src/index";
import { type RawServer, startRawServer } from "../faults/raw-server";
import { within } from "../faults/support";

/** A Hugging Face token, and a provider's own key (not `hf_…`: only the caller's token can redact it). */
export const HF_SECRET = "hf_RoundThreeSecretToken1234567890ab";
export const PROVIDER_KEY = "r8_ProviderOwnKey_9f8e7d6c5b4a";

/** Every way a user or a log may render an error: none may show `secret`. */
export function expectNoSecret(error: unknown, secret: string): void {
  expect(error).toBeInstanceOf(Error);
  const e = error as Error;
  for (const text of [e.message, String(e), JSON.stringify(e), inspect(e, { depth: 10 }), e.stack ?? ""])
    expect(text).not.toContain(secret);
}

/** A fetch that sends the router's, the Hub's and fal's URLs to `raw` and records (never fetches) any other URL. */
export function routedFetch(raw: RawServer, elsewhere: string[] = []): typeof fetch {
  return ((input: RequestInfo | URL, init?: RequestInit) => {
    const url = String(input instanceof Request ? input.url : input);
    const own = /^https:\/\/((router\.)?huggingface\.co|(queue\.)?fal\.run)(?=\/)/.exec(url);
    if (own) return fetch(raw.url + url.slice(own[0].length), init);
    if (url.startsWith(raw.url)) return fetch(url, init);
    elsewhere.push(url);
    return Promise.resolve(
      new Response(new Uint8Array([137, 80, 78, 71]), { status: 200, headers: { "content-type": "image/png" } }),
    );
  }) as typeof fetch;
}

/** The Hub's mapping of `model` to fal-ai's `providerId` for text-to-image. */
export const falMapping = (model: string, providerId = "fal-ai/flux/dev"): string =>
  JSON.stringify({
    id: model,
    inferenceProviderMapping: { "fal-ai": { providerId, task: "text-to-image", status: "live" } },
  });

/** Resolves once `predicate` holds, checking after each macrotask. */
export async function until(predicate: () => boolean, what: string, tries = 2000): Promise<void> {
  for (let i = 0; i < tries; i++) {
    if (predicate()) return;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
  throw new Error(`${what} did not happen`);
}

/** One raw loopback server for a test file, its requests forgotten and `reset()` run after each test. */
export function useRawServer(reset: () => void): { readonly server: RawServer } {
  const holder = {} as { server: RawServer };
  beforeAll(async () => {
    holder.server = await startRawServer();
  });
  afterAll(() => holder.server.close());
  afterEach(() => {
    holder.server.requests.length = 0;
    reset();
  });
  return holder;
}

/** Reads a stream to its end (a hang is a failure after `ms`): each chunk's content, and the error it ended in. */
export async function drain(
  stream: AsyncIterable<ChatCompletionStreamOutput>,
  ms: number,
  what: string,
): Promise<{ seen: string[]; error: unknown }> {
  const seen: string[] = [];
  const read = async (): Promise<void> => {
    for await (const c of stream) seen.push(c.choices[0]?.delta?.content ?? "");
  };
  const error = await within(
    read().then(
      () => undefined,
      (e: unknown) => e,
    ),
    ms,
    what,
  );
  return { seen, error };
}
