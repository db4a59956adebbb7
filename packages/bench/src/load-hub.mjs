// The load benchmark's mock hub, in a child process of its own: one model that streams 100 chunks at
// once, one that sends a chunk every `PACE_MS`. Tells its parent its URL over IPC; ends when told.
import { startMockHub } from "@hfkit/mock-hub";

/** 99 words: TGI 3.2 streams one chunk per word, then one with `finish_reason`: 100 chunks. */
const text = Array.from({ length: 99 }, (_, i) => `w${i}`).join(" ");
const PACE_MS = Number(process.argv[2] ?? 20);

const hub = await startMockHub({
  models: {
    "bench/burst": { text },
    "bench/paced": { text, faults: [{ type: "slow", delayMs: PACE_MS }] },
  },
});
process.send({ url: hub.url });
process.on("message", async (message) => {
  if (message !== "exit") return;
  await hub.close();
  process.disconnect();
});
