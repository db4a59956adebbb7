// Row 3: from the body's first byte to the first yielded chunk, in event-loop turns and ms.
// The first event arrives alone; the rest comes 100 ms later, so a client that buffers shows it.
import { STREAMS } from "./clients.mjs";
import { chunkEvent, DONE_EVENT, fetchServing } from "./sse.mjs";
import { median, rotated, sleep } from "./stats.mjs";

const encoder = new TextEncoder();
const FIRST = encoder.encode(chunkEvent(0));
const REST = encoder.encode(chunkEvent(1, true) + DONE_EVENT);

/** Counts event-loop turns: one setImmediate per turn while it runs. */
function turnCounter() {
  const counter = { turns: 0, running: true };
  const tick = () => {
    counter.turns++;
    if (counter.running) setImmediate(tick);
  };
  setImmediate(tick);
  return counter;
}

async function firstTokenOnce(key) {
  let controller;
  const body = new ReadableStream({ start: (c) => void (controller = c) });
  const iterator = (await STREAMS[key](fetchServing(() => body)))[Symbol.asyncIterator]();
  const first = iterator.next();
  await sleep(20); // the request is out and the client waits for bytes
  const counter = turnCounter();
  await sleep(5);
  const startTurn = counter.turns;
  const started = performance.now();
  controller.enqueue(FIRST);
  const rest = setTimeout(() => (controller.enqueue(REST), controller.close()), 100);
  await first;
  const sample = { turns: counter.turns - startTurn, ms: performance.now() - started };
  counter.running = false;
  while (!(await iterator.next()).done);
  clearTimeout(rest);
  return sample;
}

export async function measureFirstToken(keys, reps = 15) {
  const samples = Object.fromEntries(keys.map((k) => [k, []]));
  for (const key of keys) await firstTokenOnce(key);
  for (let round = 0; round < reps; round++) {
    for (const key of rotated(keys, round)) samples[key].push(await firstTokenOnce(key));
  }
  return Object.fromEntries(
    keys.map((k) => [
      k,
      {
        turns: median(samples[k].map((s) => s.turns)),
        maxTurns: Math.max(...samples[k].map((s) => s.turns)),
        ms: median(samples[k].map((s) => s.ms)),
      },
    ]),
  );
}
