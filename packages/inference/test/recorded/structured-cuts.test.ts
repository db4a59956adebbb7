import { describe, expect, it } from "vitest";
import { chatCompletion, chatCompletionStream } from "../../src/index";
import { readCassette } from "./fixtures";
import { recordedReply, withServer } from "./server";
import { grows } from "../helpers";

/**
 * The recorded TGI answer to a `response_format` (huggingface_hub's cassette, TGI 2.1.1): replayed whole, its JSON is
 * `message.parsed`; streamed as two chunks cut at every byte of its text, each chunk's `partial` is a part of the
 * value and the last chunk's `parsed` is the value.
 */
const CASSETTE = "2024-07_InferenceClientVCRTest.test_chat_completion_with_response_format.yaml";
const [exchange] = readCassette(CASSETTE);
if (!exchange) throw new Error(`${CASSETTE}: no exchange`);
const recorded = JSON.parse(exchange.body) as { choices: Array<{ message: { content: string } }> };
const content = recorded.choices[0]?.message.content ?? "";
const requestFormat = (
  JSON.parse(exchange.requestBody ?? "{}") as { response_format: { value: Record<string, unknown> } }
).response_format;
const schema = requestFormat.value;
const format = { type: "json_schema" as const, json_schema: { name: "outing", schema } };
const messages = [
  {
    role: "user",
    content: "I saw a puppy a cat and a raccoon during my bike ride in the park. What did I saw and when?",
  },
];

/** The pieces as TGI 2.1 streams them: each a chunk, then its end-of-turn token's text in a last chunk with `eos_token`. */
const sse = (pieces: string[]): string =>
  [...pieces, "<|eot_id|>"]
    .map(
      (piece, i) =>
        `data: ${JSON.stringify({ object: "chat.completion.chunk", id: "", created: 1, model: "m", system_fingerprint: "2.1.1", choices: [{ index: 0, delta: { role: "assistant", content: piece }, finish_reason: i === pieces.length ? "eos_token" : null }] })}\n\n`,
    )
    .join("") + "data: [DONE]\n\n";

describe("a recorded structured answer", () => {
  it("whole: TGI's own json grammar on the wire, the recorded JSON parsed and checked against its schema", async () => {
    await withServer(async (server) => {
      server.reply(recordedReply(exchange));
      const out = await chatCompletion(
        { messages, response_format: format },
        { endpointUrl: server.origin, backend: "tgi", maxRetries: 0 },
      );
      expect(out.choices[0]?.message.parsed).toEqual(JSON.parse(content));
      expect(JSON.parse(server.requests[0]?.body ?? "{}").response_format).toEqual(requestFormat);
    });
  });

  it("streamed in two chunks cut at every byte of its text: partial values only grow, and the end is the value", async () => {
    const full: unknown = JSON.parse(content);
    const encoder = new TextEncoder();
    await withServer(async (server) => {
      for (let at = 1; at < content.length; at++) {
        server.reply({
          status: 200,
          statusText: "OK",
          headers: [["content-type", ["text/event-stream"]]],
          pieces: [encoder.encode(sse([content.slice(0, at), content.slice(at)]))],
        });
        const partials: unknown[] = [];
        let parsed: unknown;
        for await (const chunk of chatCompletionStream(
          { messages, response_format: format },
          { endpointUrl: server.origin, backend: "tgi", maxRetries: 0 },
        )) {
          const choice = chunk.choices[0];
          if (choice?.partial !== undefined) partials.push(choice.partial);
          if (choice?.parsed !== undefined) parsed = choice.parsed;
        }
        expect(parsed, `cut at ${at}`).toEqual(full);
        for (const p of partials) expect(grows(p, full), `cut at ${at}: ${JSON.stringify(p)}`).toBe(true);
      }
      expect(server.requests).toHaveLength(content.length - 1);
    });
  }, 60_000);
});
