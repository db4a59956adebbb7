import {
  type CallEvent,
  type ChatCompletionArgs,
  type ChatCompletionInputMessage,
  type HealthEvent,
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
  /** `--stats`: after each answer, its time to first token, tokens per second and serving provider on stderr. */
  stats?: boolean;
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
      io.stderr.write(
        printable(`${move.from} ${move.error ? "failed" : "skipped"} (${move.reason}); trying ${move.to}\n`),
      );
    },
    onRetry: (event) => {
      loading = event.reason === "loading";
      progress.onRetry(event);
    },
    onHealth: (event) => {
      const line = healthLine(event);
      if (line === undefined) return;
      progress.clear();
      io.stderr.write(printable(`${line}\n`));
    },
  };
  let ended: Extract<CallEvent, { type: "end" }> | undefined;
  let firstMs: number | undefined;
  if (s.stats) {
    options.observe = (event) => {
      if (event.type === "first-chunk") firstMs = event.ms;
      if (event.type === "end") ended = event;
    };
  }
  const args: ChatCompletionArgs = { ...s.request, messages: [...messages] };
  if (s.stats && s.stream) args.stream_options = { ...args.stream_options, include_usage: true };
  try {
    if (!s.stream) {
      const out = await s.client.chatCompletion(args, options);
      progress.clear();
      text = out.choices[0]?.message?.content ?? "";
      io.stdout.write(printable(s.json ? `${JSON.stringify(out)}\n` : `${text}\n`));
      if (!s.json) printServed(io, out.served);
      if (ended) printStats(io, ended, firstMs);
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
    if (ended) printStats(io, ended, firstMs);
    return text;
  } catch (error) {
    if (controller.signal.aborted) {
      // A partial answer is marked as one (on stderr: stdout keeps only the answer's text).
      if (text && !s.json) {
        io.stdout.write("\n");
        io.stderr.write("(answer interrupted)\n");
      }
      return undefined;
    }
    throw explain(error, s.timeout, loading);
  } finally {
    release();
    progress.clear();
  }
}

/**
 * A call that failed over says on stderr which candidate answered (and, with the catalog's prices, about what it
 * cost; after a hedge, which candidate it won over).
 */
function printServed(io: Io, served: Served | undefined): void {
  if (served === undefined) return;
  const cost = served.cost ? `, about $${served.cost.total.toPrecision(2)}` : "";
  const hedge = served.hedge;
  const won = hedge ? `, won a hedge over ${hedge.winner === hedge.from ? hedge.to : hedge.from}` : "";
  io.stderr.write(printable(`served by ${served.provider} (${served.model}${cost}${won})\n`));
}

/** A breaker that changed, or a hedge that started, as a line on stderr (a hedge won is said by `served by`). */
function healthLine(event: HealthEvent): string | undefined {
  if (event.type === "hedge")
    return event.winner === undefined ? `${event.to} started beside ${event.from} (hedge)` : undefined;
  if (event.state === "open") {
    const until = event.cooldownMs === undefined ? "" : ` for ${Math.ceil(event.cooldownMs / 1000)} s`;
    const failures = `${event.failures} failure${event.failures === 1 ? "" : "s"}`;
    return `${event.target} skipped${until} (breaker open: ${failures})`;
  }
  return event.state === "half-open"
    ? `${event.target} probed again (breaker half-open)`
    : `${event.target} healthy again (breaker closed)`;
}

/**
 * `--stats`: the time to the first token, a stream's tokens per second after it (the server's count of the answer's
 * tokens; without one, chunks per second), the tokens, the attempts it took and who served it, on one stderr line.
 */
export function printStats(io: Io, end: Extract<CallEvent, { type: "end" }>, firstMs: number | undefined): void {
  const parts: string[] = [];
  if (firstMs !== undefined) parts.push(`first token ${Math.round(firstMs)} ms`);
  // A rate only for a stream: a whole answer's tokens all come at once.
  const streaming = firstMs !== undefined && end.chunks > 1 ? (end.durationMs - firstMs) / 1000 : 0;
  if (streaming > 0)
    parts.push(
      end.usage
        ? `${(end.usage.output / streaming).toFixed(1)} tokens/s`
        : `${((end.chunks - 1) / streaming).toFixed(1)} chunks/s`,
    );
  if (end.usage) parts.push(`${end.usage.input} in, ${end.usage.output} out`);
  parts.push(`${Math.round(end.durationMs)} ms in all`);
  if (end.attempts > 1) parts.push(`${end.attempts} attempts`);
  if (end.provider) parts.push(`served by ${end.provider}`);
  io.stderr.write(printable(`${parts.join(" · ")}\n`));
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
    return new Explained(
      error,
      `the model was still loading when --timeout ${timeout ?? error.timeoutMs} ms ran out: raise --timeout`,
    );
  }
  return error;
}
