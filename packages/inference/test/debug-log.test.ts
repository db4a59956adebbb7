/** `HFKIT_LOG=debug` (or `DEBUG=hfkit`): one line per request, status and retry, never the token. */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, afterEach, beforeAll, expect, it } from "vitest";
import { InferenceClient } from "../src/index";
import { QUESTION } from "./faults/support";

const TOKEN = "hf_debugLogSecretToken1234567890";
let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());
afterEach(() => {
  delete process.env.HFKIT_LOG;
  delete process.env.DEBUG;
});

async function linesOf(model: string): Promise<string[]> {
  const lines: string[] = [];
  const client = new InferenceClient(TOKEN, {
    baseUrl: hub.url,
    logger: { warn: () => {}, debug: (line) => void lines.push(line) },
  });
  let text = "";
  for await (const chunk of client.chatCompletionStream({ model, messages: QUESTION }))
    text += chunk.choices[0]?.delta?.content ?? "";
  expect(text).toBe("The capital of France is Paris.");
  return lines;
}

it.each([
  ["HFKIT_LOG", "debug"],
  ["DEBUG", "express,hfkit"],
])("%s=%s: the request line, each status with its time, the retry; no token", async (name, value) => {
  process.env[name] = value;
  const model = `debug/model-${name}`;
  hub.setModel(model, {});
  hub.inject({ type: "rateLimit", retryAfterMs: 50, times: 1 }, { model });
  const lines = await linesOf(model);
  expect(lines).toEqual([
    expect.stringMatching(new RegExp(`^hfkit POST ${hub.url}/models/${model}/v1/chat/completions \\(\\d+ bytes\\)$`)),
    expect.stringMatching(/^hfkit 429 application\/json in \d+ ms, request id mock-\d+$/),
    expect.stringMatching(/^hfkit retry 1 in \d+ ms \(rate-limit, HTTP 429\)$/),
    expect.stringMatching(/^hfkit POST /),
    expect.stringMatching(/^hfkit 200 text\/event-stream in \d+ ms, request id mock-\d+$/),
  ]);
  expect(lines.join("\n")).not.toContain(TOKEN);
});

it("off by default: no line", async () => {
  expect(await linesOf("hfkit/tgi-3.2")).toEqual([]);
});
