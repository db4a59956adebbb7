// Row 5: peak RSS growth while a 1 000 000-event stream is read to its end. Run as a child, one
// client per process (`node --expose-gc [--max-semi-space-size=1] src/memory.mjs <client> <events>`);
// prints JSON. V8's young generation alone may grow by 16 MB or more under any loop: capping it
// leaves what a client retains.
import { isMain } from "./child.mjs";
import { consume, STREAMS } from "./clients.mjs";
import { bodyOf, chunkEvent, DONE_EVENT, fetchServing, sseChunks } from "./sse.mjs";

const encoder = new TextEncoder();
const EVENTS_PER_CHUNK = 64;
const MB = 1024 * 1024;

/** `events` events made as they are read, in fresh ~15 KB buffers: the body is never in memory whole. */
function generatedBody(events) {
  const block = encoder.encode(Array.from({ length: EVENTS_PER_CHUNK }, (_, i) => chunkEvent(i)).join(""));
  let sent = 0;
  return new ReadableStream({
    pull(controller) {
      if (events - sent > EVENTS_PER_CHUNK) {
        controller.enqueue(block.slice());
        sent += EVENTS_PER_CHUNK;
        return;
      }
      const last = Array.from({ length: events - sent - 1 }, (_, i) => chunkEvent(i)).join("");
      controller.enqueue(encoder.encode(last + chunkEvent(0, true) + DONE_EVENT));
      sent = events;
      controller.close();
    },
  });
}

/** The RSS as the stream is read, sampled every 4096 chunks. */
async function* sampled(stream, samples) {
  let n = 0;
  for await (const chunk of stream) {
    if ((++n & 4095) === 0) samples.push(process.memoryUsage.rss());
    yield chunk;
  }
}

export async function measureMemory(key, events) {
  await consume(await STREAMS[key](fetchServing(() => bodyOf(sseChunks(10_000, "16k")))));
  globalThis.gc?.();
  const before = process.memoryUsage.rss();
  const samples = [before];
  const { count } = await consume(sampled(await STREAMS[key](fetchServing(() => generatedBody(events))), samples));
  if (count !== events) throw new Error(`${key}: ${count} chunks yielded, ${events} sent`);
  samples.push(process.memoryUsage.rss());
  // Retention grows with the events read: compare the peak after the first tenth with that point.
  const tenth = Math.floor(samples.length / 10);
  return {
    growthMB: (Math.max(...samples) - before) / MB,
    lateGrowthMB: (Math.max(...samples.slice(tenth)) - samples[tenth]) / MB,
  };
}

if (isMain(import.meta.url)) {
  const [key, events] = process.argv.slice(2);
  process.stdout.write(JSON.stringify(await measureMemory(key, Number(events))));
}
