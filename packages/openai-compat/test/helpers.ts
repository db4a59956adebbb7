import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach } from "vitest";

/** One mock hub for a test file, reset before each test. */
export function useHub(): { readonly hub: MockHub } {
  const ctx = {} as { hub: MockHub };
  beforeAll(async () => {
    ctx.hub = await startMockHub();
  });
  afterAll(() => ctx.hub.close());
  beforeEach(() => ctx.hub.reset());
  return ctx;
}

export const TEXT = "The capital of France is Paris.";
export const messages = [{ role: "user" as const, content: "What is the capital of France?" }];

export async function settled(hub: MockHub): Promise<number> {
  for (let i = 0; i < 50 && hub.openStreams() > 0; i++) await new Promise((r) => setTimeout(r, 20));
  return hub.openStreams();
}

export function within<T>(promise: Promise<T>, ms = 3000): Promise<T> {
  let timer: ReturnType<typeof setTimeout>;
  return Promise.race([
    promise.finally(() => clearTimeout(timer)),
    new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`did not settle within ${ms} ms`)), ms);
    }),
  ]);
}
