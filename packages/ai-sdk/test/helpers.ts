import { type MockHub, type RecordedRequest, type StartOptions, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { createHfkit, type HfkitProviderSettings } from "../src/index";

/** One mock hub for a test file, reset before each test. */
export function useHub(options: StartOptions = {}): { readonly hub: MockHub } {
  const ctx = {} as { hub: MockHub };
  beforeAll(async () => {
    ctx.hub = await startMockHub(options);
  });
  afterAll(() => ctx.hub.close());
  beforeEach(() => ctx.hub.reset());
  return ctx;
}

export const TEXT = "The capital of France is Paris.";
export const REASONING = "The user asks about France. Its capital is Paris.";
export const QUESTION = "What is the capital of France?";

/** A provider on the hub's hf-inference routes (`/models/{id}/v1/chat/completions`), no retries unless said. */
export function onHub(hub: MockHub, settings: HfkitProviderSettings = {}) {
  return createHfkit({ baseUrl: hub.url, accessToken: "hf_ai_sdk_test", maxRetries: 0, ...settings });
}

/** The chat requests the hub received (POSTs to a chat route). */
export function chatRequests(hub: MockHub): RecordedRequest[] {
  return hub.requests.filter((r) => r.method === "POST" && r.path.endsWith("/chat/completions"));
}

/** The body of the last chat request. */
export function lastBody(hub: MockHub): Record<string, unknown> {
  return chatRequests(hub).at(-1)?.body as Record<string, unknown>;
}

/** Polls until the hub has no response body open (or gives up), and answers the count. */
export async function settled(hub: MockHub): Promise<number> {
  for (let i = 0; i < 100 && hub.openStreams() > 0; i++) await new Promise((r) => setTimeout(r, 20));
  return hub.openStreams();
}

/** Rejects when `promise` has not settled within `ms`. */
export function within<T>(promise: PromiseLike<T>, ms = 5000): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    Promise.resolve(promise).finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
    }),
  ]);
}
