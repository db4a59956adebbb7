// The load benchmark's clients, in a child process of their own: on each IPC message `{ id, baseURL,
// model, n, headers }`, `n` concurrent streams from the official `openai` client; answers `{ id, result }`.
import OpenAI from "openai";
import { median, percentile } from "./stats.mjs";

const messages = [{ role: "user", content: "Say a hundred words." }];

/** One stream: ms to its first chunk, the gaps between chunks, their count, its error if any. */
async function oneStream(client, model, headers) {
  const started = performance.now();
  const gaps = [];
  let last;
  let first;
  let chunks = 0;
  try {
    const stream = await client.chat.completions.create({ model, messages, stream: true }, { headers });
    for await (const _ of stream) {
      const now = performance.now();
      if (last === undefined) first = now - started;
      else gaps.push(now - last);
      last = now;
      chunks++;
    }
    return { first, gaps, chunks };
  } catch (error) {
    return {
      first,
      gaps,
      chunks,
      error: `${error.name}${typeof error.status === "number" ? ` (HTTP ${error.status})` : ""}: ${error.message}`,
    };
  }
}

/** `n` streams at once; the rate counts every chunk received between the first request and the last end. */
async function run({ baseURL, model, n, headers, expected }) {
  const client = new OpenAI({ baseURL, apiKey: "hf_bench", maxRetries: 0, timeout: 60_000 });
  const started = performance.now();
  const streams = await Promise.all(Array.from({ length: n }, () => oneStream(client, model, headers)));
  const wallMs = performance.now() - started;
  const chunks = streams.reduce((sum, s) => sum + s.chunks, 0);
  const failed = streams.filter((s) => s.error !== undefined || s.chunks !== expected);
  const firsts = streams.map((s) => s.first).filter((v) => v !== undefined);
  const gaps = streams.flatMap((s) => s.gaps);
  return {
    chunks,
    wallMs,
    rate: chunks / (wallMs / 1000),
    firstP50: median(firsts),
    firstP99: percentile(firsts, 99),
    gapP99: gaps.length ? percentile(gaps, 99) : undefined,
    failed: failed.length,
    error:
      failed.find((s) => s.error)?.error ?? (failed.length ? `${failed[0].chunks} chunks of ${expected}` : undefined),
  };
}

process.on("message", async (message) => {
  if (message === "exit") return process.disconnect();
  process.send({ id: message.id, result: await run(message) });
});
