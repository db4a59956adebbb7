import type { ServerResponse } from "node:http";
import { sseEvent } from "./protocol";

/** Sends the answer to the client: its status and headers (unless already committed), then its body with backpressure. */
export async function send(answer: Response, res: ServerResponse, streaming: boolean): Promise<void> {
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
    // Stream errors already arrive as an error event (see eventBody): only a broken read ends here, and a reset says so.
    res.destroy(error as Error);
  }
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
