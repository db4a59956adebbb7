import { describe, expect, it } from "vitest";
import { InferenceClient } from "../../dist/index.js";
import { entries, title } from "./catalog";
import { requestJson } from "./fixtures";
import { expectRequest, planCall, quietLogger, TOKEN } from "./plan";
import { expectedStream, normalizeAnswer } from "./reference";
import { drain, within } from "./run";
import { recordedReply, withServer } from "./server";

/**
 * The recorded requests exactly as the recorder's client built them. huggingface_hub sends every
 * unset parameter as `null` ("stop": null, "top_logprobs": null, "seed": null, ...), and TGI took
 * those requests (the recorded answers are 200). Code that passes such arguments on must get the
 * same answers: a null parameter is an unset one, never an InputError.
 */

const WITH_NULLS = [...entries("chat-answer"), ...entries("chat-stream")].filter((ex) =>
  Object.values(requestJson(ex) ?? {}).some((v) => v === null),
);

describe.concurrent(
  "recorded requests with null parameters (huggingface_hub), sent as recorded",
  { timeout: 20_000 },
  () => {
    it("there are some", () => {
      expect(WITH_NULLS.length).toBeGreaterThan(0);
    });

    it.each(WITH_NULLS.map((ex) => [title(ex), ex] as const))("%s", async (_, ex) => {
      const stream = requestJson(ex)?.stream === true;
      await withServer(async (server) => {
        server.reply(recordedReply(ex));
        const plan = planCall(ex, server, stream, { dropNulls: false });
        const client = new InferenceClient(TOKEN, { ...plan.route.options, logger: quietLogger() });
        if (stream) {
          const got = await within(drain(client.chatCompletionStream(plan.args)), 10_000, title(ex));
          if (got.error) throw got.error;
          expect(got.chunks).toStrictEqual(expectedStream(ex.body).chunks);
        } else {
          const answer = await within(client.chatCompletion(plan.args), 10_000, title(ex));
          expect(answer).toStrictEqual(normalizeAnswer(JSON.parse(ex.body) as Record<string, unknown>));
        }
        expect(server.requests).toHaveLength(1);
        // Sent with its nulls or without them: TGI reads a null as not set either way.
        expectRequest(server.requests[0], plan.route.path, plan.body, true);
      });
    });
  },
);
