// Row 2b: bytes allocated per event (V8's sampling heap profiler, collected objects included),
// with the sites that allocate them. Run as a child, one client at a time; prints JSON.
import { Session } from "node:inspector/promises";
import { isMain } from "./child.mjs";
import { consume, hfkitStreams, STREAMS } from "./clients.mjs";
import { buildHfkitWithMap } from "./sourcemap.mjs";
import { bodyOf, fetchServing, sseChunks } from "./sse.mjs";

const EVENTS = 50_000;

/** "function file:line", with hfkit's frames named by source file when `mapped` knows them. */
export function siteOf(frame, mapped) {
  const source = mapped && frame.url === mapped.url ? mapped.sourceOf(frame.lineNumber) : undefined;
  const file =
    source ??
    `${frame.url.replace(/^.*\/node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, "").replace(/^.*\/packages\//, "") || "(native)"}:${frame.lineNumber + 1}`;
  return `${frame.functionName || "(anonymous)"} ${file}`;
}

function bytesBySite(profile, mapped) {
  const sites = new Map();
  const walk = (node) => {
    const site = siteOf(node.callFrame, mapped);
    sites.set(site, (sites.get(site) ?? 0) + node.selfSize);
    node.children.forEach(walk);
  };
  walk(profile.head);
  return [...sites].sort((a, b) => b[1] - a[1]);
}

async function sampledRun(session, stream, shape) {
  await consume(await stream(fetchServing(() => bodyOf(sseChunks(EVENTS / 10, shape)))));
  const chunks = sseChunks(EVENTS, shape);
  await session.post("HeapProfiler.startSampling", {
    samplingInterval: 1024,
    includeObjectsCollectedByMajorGC: true,
    includeObjectsCollectedByMinorGC: true,
  });
  await consume(await stream(fetchServing(() => bodyOf(chunks))));
  return (await session.post("HeapProfiler.stopSampling")).profile;
}

/**
 * The published build's bytes per event, and the sites that allocate them (with `sites`; for hfkit,
 * from a source-mapped build of the same sources).
 */
export async function measureAllocation(key, shape, withSites) {
  const session = new Session();
  session.connect();
  await session.post("HeapProfiler.enable");
  let sites = bytesBySite(await sampledRun(session, STREAMS[key], shape));
  const total = sites.reduce((sum, [, bytes]) => sum + bytes, 0);
  if (withSites && key.startsWith("hfkit")) {
    const mapped = await buildHfkitWithMap();
    const stream = hfkitStreams(await import(mapped.url))[key];
    sites = bytesBySite(await sampledRun(session, stream, shape), mapped);
  }
  session.disconnect();
  return {
    perEvent: total / EVENTS,
    sites: sites.slice(0, 8).map(([site, bytes]) => ({ site, perEvent: bytes / EVENTS })),
  };
}

if (isMain(import.meta.url)) {
  const [key, shape, withSites] = process.argv.slice(2);
  process.stdout.write(JSON.stringify(await measureAllocation(key, shape, withSites === "sites")));
}
