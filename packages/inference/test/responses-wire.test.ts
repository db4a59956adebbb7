/**
 * The native Responses stream against bodies the test controls: complete at `response.completed` even
 * when the socket stays open, an end before it, `error` frames and failed responses as typed errors,
 * the idle timeout, and hostile JSON.
 */
import { describe, expect, it } from "vitest";
import {
  IncompleteStreamError,
  MalformedEventError,
  RateLimitError,
  type ResponsesStreamEvent,
  responses,
  responsesStream,
  ServerError,
  TimeoutError,
  ValidationError,
} from "../src/index";
import { controlledBody, json, recordingFetch, sse, within } from "./helpers";

const ENDPOINT = "https://vllm.example";
const TOKEN = "hf_secret_wire_token";
const started = { id: "resp_1", object: "response", status: "in_progress", model: "m", output: [] };
const completed = {
  ...started,
  status: "completed",
  output: [
    {
      type: "message",
      id: "msg_1",
      role: "assistant",
      status: "completed",
      content: [{ type: "output_text", text: "Hi!", annotations: [] }],
    },
  ],
  usage: { input_tokens: 3, output_tokens: 2, total_tokens: 5 },
};

/** One Responses event as OpenAI frames it. */
const frame = (type: string, data: Record<string, unknown>, n: number): string =>
  `event: ${type}\ndata: ${JSON.stringify({ type, ...data, sequence_number: n })}\n\n`;
const EVENTS = [
  frame("response.created", { response: started }, 0),
  frame("response.output_text.delta", { item_id: "msg_1", output_index: 0, content_index: 0, delta: "Hi!" }, 1),
];
const COMPLETED = frame("response.completed", { response: completed }, 2);

const options = (fetch: ReturnType<typeof recordingFetch>["fetch"], extra = {}) => ({
  endpointUrl: ENDPOINT,
  backend: "openai" as const,
  fetch,
  maxRetries: 0,
  ...extra,
});

async function drain(
  stream: AsyncIterable<ResponsesStreamEvent>,
): Promise<{ seen: ResponsesStreamEvent[]; error?: unknown }> {
  const seen: ResponsesStreamEvent[] = [];
  try {
    for await (const e of stream) seen.push(e);
    return { seen };
  } catch (error) {
    return { seen, error };
  }
}

describe("the native stream's end", () => {
  it("completes at response.completed, though the server keeps the socket open; the body is cancelled", async () => {
    const body = controlledBody();
    const { fetch, seen: requests } = recordingFetch(() => sse(body.stream));
    const stream = responsesStream({ model: "m", input: "Hi", accessToken: TOKEN }, options(fetch));
    for (const e of [...EVENTS, COMPLETED]) body.push(e);
    const { seen, error } = await within(drain(stream));
    expect(error).toBeUndefined();
    expect(seen.map((e) => e.type)).toEqual(["response.created", "response.output_text.delta", "response.completed"]);
    const last = seen[2];
    expect(last && "response" in last ? last.response.output_text : "").toBe("Hi!");
    expect(body.cancelled).toBe(true);
    expect(requests[0]?.url).toBe(`${ENDPOINT}/v1/responses`);
    expect(requests[0]?.body).toEqual({ model: "m", input: "Hi", stream: true });
  });

  it("a body that ends before response.completed is an IncompleteStreamError, after the events it sent", async () => {
    const { fetch } = recordingFetch(() => sse(EVENTS.join("")));
    const { seen, error } = await drain(responsesStream({ model: "m", input: "Hi" }, options(fetch)));
    expect(seen).toHaveLength(2);
    expect(error).toBeInstanceOf(IncompleteStreamError);
  });

  it("[DONE] is not waited for, and response.incomplete completes too", async () => {
    const incomplete = frame(
      "response.incomplete",
      { response: { ...completed, status: "incomplete", incomplete_details: { reason: "max_output_tokens" } } },
      2,
    );
    const body = controlledBody();
    const { fetch } = recordingFetch(() => sse(body.stream));
    const stream = responsesStream({ model: "m", input: "Hi" }, options(fetch));
    for (const e of [...EVENTS, incomplete]) body.push(e);
    const { seen } = await within(drain(stream));
    expect(seen.at(-1)?.type).toBe("response.incomplete");
  });

  it("events of other types are not yielded, and `{}` keep-alives neither", async () => {
    const other = frame("response.reasoning_summary_part.added", { item_id: "rs_1", output_index: 0 }, 2);
    const { fetch } = recordingFetch(() => sse([EVENTS[0], "data: {}\n\n", other, COMPLETED].join("")));
    const { seen } = await drain(responsesStream({ model: "m", input: "Hi" }, options(fetch)));
    expect(seen.map((e) => e.type)).toEqual(["response.created", "response.completed"]);
  });

  it("silence after the first event: TimeoutError idle, the body cancelled", async () => {
    const body = controlledBody();
    const { fetch } = recordingFetch(() => sse(body.stream));
    body.push(EVENTS[0]!);
    const { seen, error } = await within(
      drain(responsesStream({ model: "m", input: "Hi" }, options(fetch, { idleTimeout: 30 }))),
    );
    expect(seen).toHaveLength(1);
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).kind).toBe("idle");
    await body.whenCancelled;
  });
});

describe("failures inside a 200", () => {
  it("an `event: error` frame: its code's typed error (rate_limit_exceeded → RateLimitError 429); the token never in it", async () => {
    const error = frame("error", { code: "rate_limit_exceeded", message: `Slow down (${TOKEN})`, param: null }, 2);
    const { fetch } = recordingFetch(() => sse([...EVENTS, error].join(""), { "x-request-id": "req-9" }));
    const run = await drain(responsesStream({ model: "m", input: "Hi", accessToken: TOKEN }, options(fetch)));
    expect(run.seen).toHaveLength(2);
    expect(run.error).toBeInstanceOf(RateLimitError);
    const e = run.error as RateLimitError;
    expect(e.status).toBe(429);
    expect(e.requestId).toBe("req-9");
    expect(e.message).not.toContain(TOKEN);
    expect(JSON.stringify(e.body)).not.toContain(TOKEN);
  });

  it("a response.failed event, or a failed response answered whole: the typed error of its code", async () => {
    const failed = frame(
      "response.failed",
      { response: { ...started, status: "failed", error: { code: "invalid_prompt", message: "Bad prompt" } } },
      2,
    );
    const { fetch } = recordingFetch(() => sse([...EVENTS, failed].join("")));
    const run = await drain(responsesStream({ model: "m", input: "Hi" }, options(fetch)));
    expect(run.error).toBeInstanceOf(ValidationError);
    expect((run.error as ValidationError).message).toMatch(/Bad prompt/);

    const whole = recordingFetch(() =>
      json({ ...completed, status: "failed", error: { code: "server_error", message: "It broke" } }),
    );
    await expect(responses({ model: "m", input: "Hi" }, options(whole.fetch))).rejects.toBeInstanceOf(ServerError);
  });

  it("JSON that is no response: MalformedEventError quoting it; a JSON error: its typed error", async () => {
    const odd = recordingFetch(() => json({ output: "not a list" }));
    await expect(responses({ model: "m", input: "Hi" }, options(odd.fetch))).rejects.toBeInstanceOf(
      MalformedEventError,
    );
    const err = recordingFetch(() => json({ error: { message: "Model is overloaded" } }));
    await expect(responses({ model: "m", input: "Hi" }, options(err.fetch))).rejects.toBeInstanceOf(RateLimitError);
  });

  it("a whole response answered to a stream request is yielded as its events; odd output items do not crash", async () => {
    const { fetch } = recordingFetch(() =>
      json({ ...completed, output: [...completed.output, null, { type: "message", content: "x" }] }),
    );
    const run = await drain(responsesStream({ model: "m", input: "Hi" }, options(fetch)));
    expect(run.error).toBeUndefined();
    expect(run.seen.map((e) => ("delta" in e ? e.delta : "")).join("")).toBe("Hi!");
    const fine = recordingFetch(() => json(completed));
    const ok = await drain(responsesStream({ model: "m", input: "Hi" }, options(fine.fetch)));
    expect(ok.error).toBeUndefined();
    expect(ok.seen.map((e) => e.type).filter((t) => t.includes("delta"))).toEqual(["response.output_text.delta"]);
    expect(ok.seen.at(-1)).toMatchObject({
      type: "response.completed",
      response: { id: "resp_1", output_text: "Hi!", usage: completed.usage },
    });
  });
});
