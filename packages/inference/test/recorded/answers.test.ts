import { describe, expect, it } from "vitest";
import { chatCompletion, chatCompletionStream, InferenceClient, TimeoutError } from "../../dist/index.js";
import { entries, title } from "./catalog";
import type { Exchange } from "./fixtures";
import { expectRequest, planCall, quietLogger, TOKEN } from "./plan";
import { normalizeAnswer } from "./reference";
import { drain, recordedRequestId, within } from "./run";
import { Pacer, pacedFetch, recordedReply, withServer } from "./server";
import { awkwardCuts, cut, utf8 } from "./splits";

/**
 * Every recorded chat answer (not streamed): `chatCompletion` returns the recorded JSON, normalised
 * as documented; `chatCompletionStream` given the same JSON answer yields it as a stream of two
 * chunks, role and content first, then the finish.
 */

type Json = Record<string, any>;

const ANSWERS = entries("chat-answer");

describe.concurrent("recorded chat answers through chatCompletion", { timeout: 20_000 }, () => {
  it.each(ANSWERS.map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
    await withServer(async (server) => {
      server.reply(recordedReply(ex));
      const plan = planCall(ex, server, false);
      expect(plan.rewritten).toBe(false);
      const ids: Array<string | undefined> = [];
      const client = new InferenceClient(TOKEN, {
        ...plan.route.options,
        logger: quietLogger(),
        onResponse: (info) => void ids.push(info.requestId),
      });
      const answer = await within(client.chatCompletion(plan.args), 10_000, title(ex));

      expect(answer).toStrictEqual(normalizeAnswer(JSON.parse(ex.body) as Json));
      expect(ids).toStrictEqual([recordedRequestId(ex)]);
      expect(server.requests).toHaveLength(1);
      expectRequest(server.requests[0], plan.route.path, plan.body);
    });
  });
});

/** The two chunks a whole answer must give as a stream (ARCHITECTURE.md: role+content, then the finish). */
function expectAnswerAsChunks(chunks: unknown[], recorded: Json): void {
  const answer = normalizeAnswer(recorded) as Json;
  expect(chunks).toHaveLength(2);
  const [first, last] = chunks as [Json, Json];
  for (const chunk of [first, last]) {
    expect(chunk.object).toBe("chat.completion.chunk");
    for (const key of ["id", "model", "created"])
      if (answer[key] != null) expect(chunk[key]).toStrictEqual(answer[key]);
    expect(chunk.choices).toHaveLength(answer.choices.length);
  }
  answer.choices.forEach((choice: Json, i: number) => {
    const delta = first.choices[i].delta;
    expect(first.choices[i].index).toBe(choice.index ?? i);
    expect(delta.role).toBe(choice.message.role);
    expect(delta.content ?? "").toBe(choice.message.content ?? "");
    if (choice.message.tool_calls) {
      expect(delta.tool_calls).toStrictEqual(
        choice.message.tool_calls.map((call: Json, index: number) => ({ index, ...call })),
      );
    }
    expect(first.choices[i].finish_reason ?? null).toBeNull();
    expect(last.choices[i].index).toBe(choice.index ?? i);
    expect(last.choices[i].finish_reason).toBe(choice.finish_reason);
    expect(last.choices[i].delta.content ?? "").toBe("");
  });
  if (answer.usage) expect(last.usage).toStrictEqual(answer.usage);
}

describe.concurrent(
  "recorded chat answers through chatCompletionStream (a JSON answer to a stream request)",
  { timeout: 20_000 },
  () => {
    it.each(ANSWERS.map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
      await withServer(async (server) => {
        server.reply(recordedReply(ex));
        const plan = planCall(ex, server, true);
        const got = await within(
          drain(
            chatCompletionStream(
              { ...plan.args, accessToken: TOKEN },
              { ...plan.route.options, logger: quietLogger() },
            ),
          ),
          10_000,
          title(ex),
        );
        if (got.error) throw got.error;
        expectAnswerAsChunks(got.chunks, JSON.parse(ex.body) as Json);
        expect(server.requests).toHaveLength(1);
        expectRequest(server.requests[0], plan.route.path, plan.body);
      });
    });
  },
);

/** The answers with multi-byte text, cut inside each of their characters (the recorded streams have none). */
const MULTI_BYTE_ANSWERS: Exchange[] = ANSWERS.filter((ex) => awkwardCuts(utf8(ex.body)).length > 0);

describe("recorded chat answers with multi-byte text, cut inside every character", { timeout: 20_000 }, () => {
  it("there are some", () => {
    expect(MULTI_BYTE_ANSWERS.length).toBeGreaterThan(0);
  });

  it.each(MULTI_BYTE_ANSWERS.map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
    const bytes = utf8(ex.body);
    const recorded = JSON.parse(ex.body) as Json;
    await withServer(async (server) => {
      for (const at of awkwardCuts(bytes)) {
        const pieces = cut(bytes, [at]);
        for (const stream of [false, true]) {
          const pacer = new Pacer();
          server.reply({ ...recordedReply(ex), pieces, pacer });
          const plan = planCall(ex, server, stream);
          const options = { ...plan.route.options, fetch: pacedFetch(pacer), logger: quietLogger() };
          const args = { ...plan.args, accessToken: TOKEN };
          if (stream) {
            const got = await within(drain(chatCompletionStream(args, options)), 10_000, `${title(ex)} cut at ${at}`);
            if (got.error) throw got.error;
            expectAnswerAsChunks(got.chunks, recorded);
          } else {
            const answer = await within(chatCompletion(args, options), 10_000, `${title(ex)} cut at ${at}`);
            expect(answer).toStrictEqual(normalizeAnswer(recorded));
          }
          expect(pacer.reads[0]).toBe(at);
        }
      }
    });
  });
});

/**
 * A JSON answer to a stream request whose response is never ended by the server: with an idle limit
 * set, the stream must still end (the answer's two chunks, or an idle TimeoutError), as a stream of
 * events does ("never hangs"; `idleTimeout` is the longest silence between bytes of a stream).
 */
describe.concurrent(
  "recorded chat answers to a stream request, the server never closing the response",
  { timeout: 20_000 },
  () => {
    const firstOfEachKind = [
      ANSWERS.find((ex) => ex.url.includes("/models/")),
      ANSWERS.find((ex) => !ex.url.includes("huggingface.co")),
    ].filter((ex): ex is Exchange => ex !== undefined);

    it("has a TGI answer and a provider's answer to serve", () => {
      expect(firstOfEachKind).toHaveLength(2);
    });

    it.each(firstOfEachKind.map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
      await withServer(async (server) => {
        server.reply({ ...recordedReply(ex), keepOpen: true });
        const plan = planCall(ex, server, true);
        const stream = chatCompletionStream(
          { ...plan.args, accessToken: TOKEN },
          { ...plan.route.options, idleTimeout: 500, logger: quietLogger() },
        );
        // 15 s: a hang (the default idleTimeout is 60 s); the 500 ms limit is how it ends, however slow the machine
        const got = await within(drain(stream), 15_000, `${title(ex)}, body never ended, idleTimeout 500 ms`);
        if (got.error) {
          expect(got.error).toBeInstanceOf(TimeoutError);
          expect((got.error as TimeoutError).kind).toBe("idle");
        } else expectAnswerAsChunks(got.chunks, JSON.parse(ex.body) as Json);
        await within(server.requests[0]?.closed ?? Promise.reject(new Error("no request")), 15_000, "socket close");
      });
    });
  },
);
