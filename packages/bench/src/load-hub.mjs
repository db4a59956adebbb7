// The load benchmark's mock hub, in a child process of its own: one model that streams 100 chunks at
// once, one that sends a chunk every `PACE_MS` (TGI 3.2's chunks), and one that streams vLLM's 100 chunks at once.
// Tells its parent its URL over IPC; ends when told.
import { startMockHub } from "@hfkit/mock-hub";

/** 99 words: TGI 3.2 streams one chunk per word, then one with `finish_reason`: 100 chunks. */
const words = (n) => Array.from({ length: n }, (_, i) => `w${i}`).join(" ");
const text = words(99);
const PACE_MS = Number(process.argv[2] ?? 20);

const hub = await startMockHub({
  models: {
    "bench/burst": { text },
    "bench/paced": { text, faults: [{ type: "slow", delayMs: PACE_MS }] },
    // vLLM streams a role chunk first, then one per word and the finish: 98 words make 100 chunks. Its chunks carry
    // their id, so the proxy relays them as sent; TGI's (`"id": ""`) each need one.
    "bench/burst-vllm": { text: words(98), backend: "vllm" },
  },
});
process.send({ url: hub.url });
process.on("message", async (message) => {
  if (message !== "exit") return;
  await hub.close();
  process.disconnect();
});
