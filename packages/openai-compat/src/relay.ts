import type { ServerResponse } from "node:http";
import { type Answer, type EventAnswer, isEventAnswer } from "./answer";
import { sseEvent } from "./protocol";

/** Sends the answer to the client: its status and headers (unless already committed), then its body with backpressure. */
export async function send(answer: Answer, res: ServerResponse, streaming: boolean): Promise<void> {
  if (isEventAnswer(answer)) return relay(answer, res);
  if (res.headersSent && !answer.ok) {
    // Already committed to a 200: the error goes in the body, as OpenAI's servers send it.
    const text = await answer.text();
    return void res.end(streaming ? sseEvent(JSON.parse(text)) : text);
  }
  if (!res.headersSent) {
    const headers: Record<string, string> = {};
    answer.headers.forEach((v, k) => (headers[k] = v));
    res.writeHead(answer.status, headers);
  }
  if (!answer.body) return void res.end();
  const reader = answer.body.getReader();
  res.on("close", () => void reader.cancel().catch(() => {}));
  try {
    await copy(reader, res);
    res.end();
  } catch (error) {
    // Only a broken read ends here, and a reset says so.
    res.destroy(error as Error);
  }
}

/** Closes an answer no one will read: its body, or its stream and so the upstream call. */
export async function discard(answer: Answer): Promise<void> {
  await (isEventAnswer(answer) ? answer.stream.return(undefined) : answer.body?.cancel());
}

/**
 * Relays a stream's events as they come: the events taken in one tick go out as one write, and no more is
 * read while the client's buffer is full (a slow client slows the upstream read). The end, or an error
 * after the first event (as the framing's error event), goes out with the last write.
 */
async function relay<T>({ headers, first, stream, framing }: EventAnswer<T>, res: ServerResponse): Promise<void> {
  if (!res.headersSent) res.writeHead(200, headers);
  const stop = (): void => void stream.return(undefined);
  res.once("close", stop);
  const out = new TickWriter(res);
  let last: string | undefined;
  try {
    for (let r = first; !r.done; r = await stream.next()) {
      if (res.destroyed) return;
      out.add(framing.event(r.value));
      if (res.writableNeedDrain) await drained(res);
    }
    last = framing.end;
  } catch (error) {
    last = framing.failed(error);
  }
  res.off("close", stop);
  out.end(last);
}

/**
 * Text for a response, joined until the tick's end (`process.nextTick` runs once the microtasks, and so
 * every event already read, are done) and then written at once: one chunk and one syscall per tick.
 */
class TickWriter {
  private text = "";
  private scheduled = false;

  constructor(private readonly res: ServerResponse) {}

  add(text: string): void {
    this.text += text;
    if (this.scheduled) return;
    this.scheduled = true;
    process.nextTick(this.flush);
  }

  /** Ends the response with what is pending and `last`. */
  end(last = ""): void {
    const text = this.text + last;
    this.text = "";
    if (!this.res.destroyed) this.res.end(text);
  }

  private readonly flush = (): void => {
    this.scheduled = false;
    const text = this.text;
    this.text = "";
    if (text !== "" && !this.res.destroyed && !this.res.writableEnded) this.res.write(text);
  };
}

/** Copies the answer to the client, reading no more while the client's buffer is full: a slow client slows the upstream read. */
async function copy(reader: ReadableStreamDefaultReader<Uint8Array>, res: ServerResponse): Promise<void> {
  for (;;) {
    const { done, value } = await reader.read();
    if (done || res.destroyed) return;
    if (!res.write(value)) await drained(res);
  }
}

/** Resolves once `res` can take more, or is closed. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = (): void => {
      res.off("drain", done).off("close", done);
      resolve();
    };
    res.on("drain", done).on("close", done);
  });
}
