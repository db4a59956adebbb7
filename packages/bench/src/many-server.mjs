// The many-streams benchmark's server, in a child process of its own (`many-server.mjs <chunks> <pace ms>`):
// every POST is answered with a TGI-style chat stream of that many events, one every pace (under /burst: all
// at once), then `[DONE]`. Tells its parent its URL over IPC; answers "cpu" with the CPU seconds it has used;
// ends on "exit".
import { createServer } from "node:http";
import { chunkEvent, DONE_EVENT } from "./sse.mjs";

const [CHUNKS, PACE_MS] = process.argv.slice(2).map(Number);

/** The stream's events as ready-made buffers: the server does no work per chunk but the write. */
const event = (i) => (i === CHUNKS - 1 ? chunkEvent(i, true) + DONE_EVENT : chunkEvent(i));
const EVENTS = Array.from({ length: CHUNKS }, (_, i) => Buffer.from(event(i)));
const HEADERS = { "content-type": "text/event-stream", "cache-control": "no-cache" };

/** Writes event `i` at `started + (i + 1) × pace` (no drift), ends after the last. */
function paced(res, pace) {
  const started = performance.now();
  let i = 0;
  const next = () => {
    if (res.destroyed) return;
    res.write(EVENTS[i++]);
    if (i === CHUNKS) res.end();
    else setTimeout(next, Math.max(0, started + (i + 1) * pace - performance.now()));
  };
  setTimeout(next, pace);
}

function answer(req, res) {
  req.resume();
  req.on("end", () => {
    res.writeHead(200, HEADERS);
    if (req.url.startsWith("/burst")) res.end(Buffer.concat(EVENTS));
    else paced(res, PACE_MS);
  });
}

const server = createServer({ keepAliveTimeout: 60_000 }, answer);
// The default backlog (511) drops some of 1 000 connections opened at once: each then waits a SYN retry.
server.listen({ port: 0, host: "127.0.0.1", backlog: 4096 }, () => {
  process.send({ url: `http://127.0.0.1:${server.address().port}` });
});
process.on("message", (message) => {
  if (message === "cpu") {
    const { user, system } = process.cpuUsage();
    process.send({ cpu: (user + system) / 1e6 });
  } else if (message === "exit") {
    server.closeAllConnections();
    server.close(() => process.disconnect());
  }
});
