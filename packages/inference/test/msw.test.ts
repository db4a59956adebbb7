import { createMockHub } from "@hfkit/mock-hub";
import { createMockHubHandlers } from "@hfkit/mock-hub/msw";
import { setupServer } from "msw/node";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { collectStream, InferenceClient, ValidationError } from "../src/index";
import { messages, within } from "./helpers";

// The browser-like path: no socket, the global fetch patched by msw after the client was made.
const base = "https://hub.mock.test";
const hub = createMockHub();
const server = setupServer(...createMockHubHandlers(hub, { baseUrl: base }));
const client = new InferenceClient("hf_test", { baseUrl: base, maxRetries: 0 });

beforeAll(() => server.listen({ onUnhandledRequest: "error" }));
afterAll(() => {
  server.close();
  hub.dispose();
});

describe("through msw", () => {
  it("streams a TGI 2.0 answer (no [DONE]) that lingers", async () => {
    hub.inject({ type: "linger" }, { model: "hfkit/tgi-2.0" });
    const out = await within(
      collectStream(client.chatCompletionStream({ model: "hfkit/tgi-2.0", messages, max_tokens: 2 })),
    );
    expect(out.choices[0]?.message.content).toBe("The capital");
  });

  it("raises the in-stream validation error of TGI 2.4.1", async () => {
    const error = await within(
      collectStream(client.chatCompletionStream({ model: "hfkit/tgi-2.4.1", messages, max_tokens: 5000 })).catch(
        (e: unknown) => e,
      ),
    );
    expect(error).toBeInstanceOf(ValidationError);
  });

  it("answers a non-streamed call", async () => {
    const out = await client.chatCompletion({ model: "hfkit/tgi-3.2", messages, max_tokens: 1 });
    expect(out.choices[0]?.message.content).toBe("The");
  });
});
