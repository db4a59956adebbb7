import {
  type ChatCompletionArgs,
  type ChatCompletionInputMessage,
  type InferenceClient,
  ModelLoadingError,
  type Options,
  type Served,
  TimeoutError,
} from "@hfkit/inference";
import type { Io } from "../io";
import { Progress } from "../progress";
import { Explained } from "../report";
import { printable } from "../safeText";

/** What every answer of one `hfkit chat` shares. */
export interface Session {
  io: Io;
  client: InferenceClient;
  /** The model's name, for the progress line. */
  model: string;
  /** The request's fields other than `messages`. */
  request: Omit<ChatCompletionArgs, "messages">;
  stream: boolean;
  json: boolean;
  verbose: boolean;
  color: boolean;
  /** `--timeout`, ms. */
  timeout: number | undefined;
}

/**
 * Asks for one answer and prints it as it arrives (text, or JSON with `--json`). Resolves to the
 * answer's text, or undefined when Ctrl-C cancelled it: the request is aborted at once (its socket
 * closed) and what was printed ends with a newline.
 */
export async function answer(s: Session, messages: ChatCompletionInputMessage[]): Promise<string | undefined> {
  const { io } = s;
  const controller = new AbortController();
  const release = io.interrupts.push(() => controller.abort());
  const progress = new Progress(io.stderr, s.model, s.color);
  let loading = false;
  let text = "";
  const options: Options = {
    signal: controller.signal,
    onFailover: (move) => {
      progress.clear();
      io.stderr.write(printable(`${move.from} ${move.error ? "failed" : "skipped"} (${move.reason}); trying ${move.to}\n`));
    },
    onRetry: (event) => {
      loading = event.reason === "loading";
      progress.onRetry(event);
    },
  };
  const args: ChatCompletionArgs = { ...s.request, messages: [...messages] };
  try {
    if (!s.stream) {
      const out = await s.client.chatCompletion(args, options);
      progress.clear();
      text = out.choices[0]?.message?.content ?? "";
      io.stdout.write(printable(s.json ? `${JSON.stringify(out)}\n` : `${text}\n`));
      if (!s.json) printServed(io, out.served);
      return text;
    }
    let served: Served | undefined;
    for await (const chunk of s.client.chatCompletionStream(args, options)) {
      served = chunk.served ?? served;
      const content = chunk.choices[0]?.delta?.content ?? "";
      if (s.json || content) {
        progress.clear();
        loading = false;
        io.stdout.write(printable(s.json ? `${JSON.stringify(chunk)}\n` : content));
      }
      text += content;
    }
    if (!s.json) {
      io.stdout.write("\n");
      printServed(io, served);
    }
    return text;
  } catch (error) {
    if (controller.signal.aborted) {
      if (text && !s.json) io.stdout.write("\n");
      return undefined;
    }
    throw explain(error, s.timeout, loading);
  } finally {
    release();
    progress.clear();
  }
}

/** A call that failed over says on stderr which candidate answered (and, with the catalog's prices, about what it cost). */
function printServed(io: Io, served: Served | undefined): void {
  if (served === undefined) return;
  const cost = served.cost ? `, about $${served.cost.total.toPrecision(2)}` : "";
  io.stderr.write(printable(`served by ${served.provider} (${served.model}${cost})\n`));
}

/** A loading model that outlasts the deadline says which limit to raise. */
function explain(error: unknown, timeout: number | undefined, loading: boolean): unknown {
  if (error instanceof ModelLoadingError) {
    const estimate = error.estimatedTime !== undefined ? ` (about ${Math.round(error.estimatedTime)} s)` : "";
    return new Explained(
      error,
      timeout !== undefined
        ? `its estimated loading time${estimate} exceeds --timeout ${timeout} ms: raise --timeout (or drop it to wait)`
        : `it was still loading after the longest wait allowed${estimate}: try again later`,
    );
  }
  if (error instanceof TimeoutError && error.kind === "deadline" && loading) {
    return new Explained(error, `the model was still loading when --timeout ${timeout ?? error.timeoutMs} ms ran out: raise --timeout`);
  }
  return error;
}
