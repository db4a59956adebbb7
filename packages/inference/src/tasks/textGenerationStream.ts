import { backendMemory } from "../backends/memory";
import { HttpError } from "../errors";
import { readErrorFields } from "../errorTable";
import { isEventStream, originOf, release, sendOnce, serialize } from "../transport/request";
import { withRetries } from "../transport/retry";
import { EventStream, type StreamOrigin, type StreamRules } from "../transport/sse";
import type { Options, TextGenerationArgs, TextGenerationOutput, TextGenerationStreamOutput } from "../types";
import type { Prepared } from "./prepare";
import { arraySource, type Source, StreamIterator } from "./streamIterator";
import { prepareGeneration, readGenerationOutput, toGenerationOutput } from "./textGeneration";

/**
 * TGI's `generate_stream` events as an async iterator. The stream completes at the event whose
 * `generated_text` is a string, even if the server keeps the socket open. A transformers-served
 * model cannot stream: its one answer is yielded as one final event.
 */
export function textGenerationStream(
  args: TextGenerationArgs,
  options: Options = {},
): AsyncGenerator<TextGenerationStreamOutput, undefined, unknown> {
  return new StreamIterator<TextGenerationStreamOutput>(() => {
    const p = prepareGeneration(args, options, true);
    return { call: p.call, source: withRetries(p.call, p.policy, (extra) => openGenerationSource(p, extra)) };
  });
}

async function openGenerationSource(
  p: Prepared<TextGenerationArgs>,
  extra: Record<string, string> | undefined,
): Promise<Source<TextGenerationStreamOutput>> {
  p.backend ??= p.options.backend ?? backendMemory.get(p.route.key)?.backend;
  if (p.backend !== "transformers") {
    try {
      const res = await sendOnce(p.call, p.spec, extra);
      if (isEventStream(res)) {
        backendMemory.remember(p.route.key, "tgi");
        const origin = originOf(p.call, p.spec.url, res);
        const stream = new EventStream(res.body, p.call, generateRules(origin), origin, () => release(res));
        await stream.prime();
        return stream;
      }
      return oneEvent(p, await readGenerationOutput(p, res));
    } catch (error) {
      if (!(error instanceof HttpError && streamNotSupported(error))) throw error;
      p.backend = "transformers";
    }
  }
  const { stream: _, ...body } = p.spec.body.value;
  const res = await sendOnce(p.call, { ...p.spec, body: serialize(body) }, extra);
  const output = await readGenerationOutput(p, res);
  backendMemory.remember(p.route.key, "transformers", backendMemory.get(p.route.key)?.dropped);
  return oneEvent(p, output);
}

/** The pipeline's 400 when asked to stream. */
function streamNotSupported(error: HttpError): boolean {
  return error.status === 400 && /stream.*not supported/i.test(readErrorFields(error.body).message);
}

function oneEvent(p: Prepared<TextGenerationArgs>, out: TextGenerationOutput): Source<TextGenerationStreamOutput> {
  p.call.finish();
  return arraySource(asEvents(out));
}

/** A whole answer as the one final event a stream would end with. */
function asEvents(out: TextGenerationOutput): TextGenerationStreamOutput[] {
  const token = { id: 0, text: out.generated_text, logprob: 0, special: false };
  return [{ index: 1, token, generated_text: out.generated_text, details: out.details ?? null }];
}

function generateRules(origin: StreamOrigin): StreamRules<TextGenerationStreamOutput> {
  let complete = false;
  let count = 0;
  return {
    accept(event) {
      count++;
      if (typeof event.generated_text === "string") complete = true;
      // Older TGI events carry no index; TGI counts tokens from 1.
      if (event.index === undefined) event.index = count;
      return event as TextGenerationStreamOutput;
    },
    graceAfterComplete: () => (complete ? 0 : undefined),
    whole: (body, text) => asEvents(toGenerationOutput(body, text, origin)),
  };
}
