import { describe, expect, it } from "vitest";
import { InferenceClient } from "../../dist/index.js";
import { entries } from "./catalog";
import { ALL_EXCHANGES, type Exchange, requestJson } from "./fixtures";
import { expectRequest, planCall, quietLogger, TOKEN } from "./plan";
import { drain, within } from "./run";
import { recordedReply, type ReplayServer, type SeenRequest, withServer } from "./server";

/**
 * A recorded chat call on a model TGI does not serve (huggingface_hub, 2024-07, DialoGPT-small):
 * TGI's chat route answers 500 "unknown error" with `warnings`; the pipeline at the model's root
 * answers 400 on the unused `model_kwargs` ['stop']; without `stop` it answers
 * `[{generated_text}]`. The SDK must walk the same three steps (docs/backends.md).
 */

const FLOW = "2024-07_InferenceClientVCRTest.test_chat_completion_with_non_tgi.yaml#";
const steps = ALL_EXCHANGES.filter((ex) => ex.id.startsWith(FLOW));

type Json = Record<string, unknown>;

/**
 * The recorded answer for a request: by path, and on the pipeline by whether `stop` was sent
 * (the two recorded pipeline requests differ only by it).
 */
function answerFor(req: SeenRequest): Exchange {
  const sent = JSON.parse(req.body) as { parameters?: Json };
  const samePath = steps.filter((ex) => new URL(ex.url).pathname === req.path);
  const match =
    samePath.length === 1
      ? samePath[0]
      : samePath.find(
          (ex) => "stop" in ((requestJson(ex)?.parameters ?? {}) as Json) === "stop" in (sent.parameters ?? {}),
        );
  if (!match) throw new Error(`no recorded answer for ${req.path} ${req.body}`);
  return match;
}

describe("a recorded chat call that falls back to the transformers pipeline", { timeout: 20_000 }, () => {
  it("is recorded as three steps", () => {
    expect(steps.map((ex) => ex.status)).toStrictEqual([500, 400, 200]);
    expect(entries("chat-fallback")).toStrictEqual(steps.slice(1));
  });

  /** One call through the three steps on `server`; returns the answer's text. */
  async function walk(server: ReplayServer, stream: boolean, logger: ReturnType<typeof quietLogger>): Promise<string> {
    const plan = planCall(steps[0] as Exchange, server, stream);
    // The recorded call: Python's client sent `stop: null` to the chat route and `stop: []` to the pipeline.
    const args = { ...plan.args, stop: [] as string[] };
    const client = new InferenceClient(TOKEN, { ...plan.route.options, logger });
    if (!stream) {
      const answer = await within(client.chatCompletion(args), 10_000, "fallback answer");
      expect(answer.choices).toHaveLength(1);
      expect(typeof answer.choices[0]?.finish_reason).toBe("string");
      return answer.choices[0]?.message.content ?? "";
    }
    const got = await within(drain(client.chatCompletionStream(args)), 10_000, "fallback stream");
    if (got.error) throw got.error;
    const chunks = got.chunks as Array<{
      choices: Array<{ delta: { content?: string }; finish_reason?: string | null }>;
    }>;
    // A pipeline answer is yielded as a stream: role and content, then the finish (docs/backends.md).
    expect(chunks).toHaveLength(2);
    expect(typeof chunks[1]?.choices[0]?.finish_reason).toBe("string");
    return chunks.map((c) => c.choices[0]?.delta.content ?? "").join("");
  }

  const pipelineBody = (withStop: boolean): Json => ({
    inputs: requestJson(steps[1] as Exchange)?.inputs,
    parameters: { max_new_tokens: 20, return_full_text: false, ...(withStop ? { stop: [] } : {}) },
  });

  it("takes the same three steps, answers the recorded text, then goes straight to the pipeline", async () => {
    const [chatStep, refused, answered] = steps as [Exchange, Exchange, Exchange];
    const text = (JSON.parse(answered.body) as Array<{ generated_text: string }>)[0]?.generated_text;
    const pipelinePath = new URL(refused.url).pathname;
    expect(new URL(answered.url).pathname).toBe(pipelinePath);
    // Two servers alive at once: two ports, so two (endpoint, model) keys in the SDK's shared memory.
    await withServer((a) =>
      withServer(async (b) => {
        for (const [server, stream] of [
          [a, false],
          [b, true],
        ] as const) {
          server.reply((req) => recordedReply(answerFor(req)));
          const logger = quietLogger();
          expect(await walk(server, stream, logger)).toBe(text);
          const plan = planCall(chatStep, server, stream);
          expect(server.requests).toHaveLength(3);
          expectRequest(server.requests[0], plan.route.path, { ...plan.body, stop: [] });
          expectRequest(server.requests[1], pipelinePath, pipelineBody(true));
          expectRequest(server.requests[2], pipelinePath, pipelineBody(false));
          expect(logger.messages).toHaveLength(1);
          expect(logger.messages[0]).toMatch(/`stop`/);
        }
        // Learnt: the next call goes to the pipeline at once, without `stop`.
        expect(await walk(a, false, quietLogger())).toBe(text);
        expect(a.requests).toHaveLength(4);
        expectRequest(a.requests[3], pipelinePath, pipelineBody(false));
      }),
    );
  });
});
