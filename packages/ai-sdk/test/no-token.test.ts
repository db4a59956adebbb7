/**
 * The provider with no token and a named provider: against the mock hub (HF_INFERENCE_ENDPOINT, as `hfkit mock-hub`
 * prints it) it answers; against a router that needs a token, the error says none was sent and names HF_TOKEN once.
 */
import { generateText } from "ai";
import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createHfkit } from "../src/index";
import { chatRequests, QUESTION, TEXT, useHub, within } from "./helpers";

const ctx = useHub();
beforeEach(() => {
  vi.stubEnv("HF_INFERENCE_ENDPOINT", ctx.hub.url);
  vi.stubEnv("HF_TOKEN", "");
});
afterEach(() => vi.unstubAllEnvs());

describe("createHfkit with a named provider and no token", () => {
  it('answers from the mock hub: no HF_TOKEN, or accessToken ""', async () => {
    for (const settings of [{}, { accessToken: "" }, { accessToken: " " }]) {
      const model = createHfkit({ provider: "together", maxRetries: 0, ...settings })("hfkit/router-multi");
      expect((await within(generateText({ model, prompt: QUESTION }))).text, JSON.stringify(settings)).toBe(TEXT);
    }
    expect(chatRequests(ctx.hub).map((r) => [(r.body as { model: string }).model, r.headers.authorization])).toEqual([
      ["hfkit/router-multi:together", undefined],
      ["hfkit/router-multi:together", undefined],
      ["hfkit/router-multi:together", undefined],
    ]);
  });

  it("a router that needs one: the error says so, naming HF_TOKEN once", async () => {
    const refusing = async () => Response.json({ error: "Invalid username or password." }, { status: 401 });
    const model = createHfkit({ provider: "together", maxRetries: 0, fetch: refusing })("hfkit/router-multi");
    const error = await generateText({ model, prompt: QUESTION, maxRetries: 0 }).catch((e: unknown) => e);
    const message = (error as Error).message;
    expect(message).toContain(
      "No token was sent: set HF_TOKEN to a token from https://huggingface.co/settings/tokens.",
    );
    expect(message.match(/HF_TOKEN/g)).toHaveLength(1);
  });
});
