/**
 * Failover against the mock hub as the HF router (`routerUrl`): the Responses API (served natively by the
 * router) and chat, each candidate's request seen by the hub, in order.
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { FailoverError, type FailoverEvent, InferenceClient } from "../src/index";

const MODEL = "hfkit/router-multi";
const TEXT = "The capital of France is Paris.";
let hub: MockHub;
let client: InferenceClient;

beforeAll(async () => {
  hub = await startMockHub();
  client = new InferenceClient("hf_failover_hub", { routerUrl: hub.url, maxRetries: 0, logger: { warn: () => {} } });
});
afterAll(() => hub.close());
beforeEach(() => hub.reset());

/** The POSTs the hub got: path and the body's model. */
const posts = () =>
  hub.requests.filter((r) => r.method === "POST").map((r) => `${r.path} ${(r.body as { model: string }).model}`);

describe("the Responses API fails over too", () => {
  it("responses: a 502 from the first provider moves the call; the response says who served it", async () => {
    hub.inject({ type: "serverError", status: 502 }, { model: MODEL, times: 1 });
    const events: FailoverEvent[] = [];
    const out = await client.responses(
      { model: MODEL, input: "What is the capital of France?", provider: ["together", "novita"] },
      { onFailover: (e) => events.push(e) },
    );
    expect(out.output_text).toBe(TEXT);
    expect(out.served).toEqual({ model: MODEL, provider: "novita" });
    expect(posts()).toEqual([`/v1/responses ${MODEL}:together`, `/v1/responses ${MODEL}:novita`]);
    expect(events.map((e) => e.reason)).toEqual(["server-error"]);
  });

  it("responsesStream: the events of the candidate that answered, each lifecycle event's response saying who", async () => {
    hub.inject({ type: "serverError", status: 503 }, { model: MODEL, times: 1 });
    let text = "";
    let completed: unknown;
    for await (const event of client.responsesStream({
      model: MODEL,
      input: "What is the capital of France?",
      provider: ["together", "novita"],
    })) {
      if (event.type === "response.output_text.delta") text += event.delta;
      if (event.type === "response.completed") completed = event.response.served;
    }
    expect(text).toBe(TEXT);
    expect(completed).toEqual({ model: MODEL, provider: "novita" });
    expect(posts()).toEqual([`/v1/responses ${MODEL}:together`, `/v1/responses ${MODEL}:novita`]);
  });

  it("fallbackModels, and one FailoverError when every candidate fails", async () => {
    hub.inject({ type: "serverError", status: 500 });
    const error = await client
      .responses({ model: MODEL, input: "hi", fallbackModels: ["hfkit/tgi-3.2"] })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(FailoverError);
    expect((error as FailoverError).attempts.map((a) => [a.candidate, a.reason])).toEqual([
      [`${MODEL}:auto`, "server-error"],
      ["hfkit/tgi-3.2:auto", "server-error"],
    ]);
    expect(posts()).toEqual([`/v1/responses ${MODEL}`, "/v1/responses hfkit/tgi-3.2"]);
  });
});

describe("chat against the mock hub's catalog", () => {
  it("with tools, novita (no tools in the catalog) is skipped without a request", async () => {
    hub.inject({ type: "serverError", status: 502 }, { model: MODEL, times: 1 });
    const events: FailoverEvent[] = [];
    const tools = [
      {
        type: "function",
        function: { name: "weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
      },
    ];
    const out = await client.chatCompletion(
      {
        model: MODEL,
        messages: [{ role: "user", content: "weather?" }],
        tools,
        provider: ["together", "novita", "hf-inference"],
      },
      { onFailover: (e) => events.push(e) },
    );
    expect(out.served?.provider).toBe("hf-inference");
    expect(events.map((e) => [e.from, e.reason])).toEqual([
      [`${MODEL}:together`, "server-error"],
      [`${MODEL}:novita`, "no-tools"],
    ]);
    expect(posts()).toEqual([
      `/v1/chat/completions ${MODEL}:together`,
      `/hf-inference/models/${MODEL}/v1/chat/completions ${MODEL}`,
    ]);
  });
});
