// Where hfkit's stream time goes: V8's CPU profiler over a source-mapped build of the same code,
// self time per function and per file, in ms per 100 000 events. Run as a child; prints JSON.
import { Session } from "node:inspector/promises";
import { siteOf } from "./allocation.mjs";
import { isMain } from "./child.mjs";
import { consume, hfkitStreams } from "./clients.mjs";
import { buildHfkitWithMap } from "./sourcemap.mjs";
import { bodyOf, fetchServing, sseChunks } from "./sse.mjs";

const EVENTS = 100_000;
const RUNS = 3;

function selfTimes(profile, mapped) {
  const byId = new Map(profile.nodes.map((n) => [n.id, n]));
  const bySite = new Map();
  profile.samples.forEach((id, i) => {
    const site = siteOf(byId.get(id).callFrame, mapped);
    bySite.set(site, (bySite.get(site) ?? 0) + (profile.timeDeltas[i] ?? 0));
  });
  return bySite;
}

const fileOf = (site) => site.slice(site.lastIndexOf(" ") + 1).replace(/:\d+$/, "");

export async function profileHfkit(shape) {
  const mapped = await buildHfkitWithMap();
  const stream = hfkitStreams(await import(mapped.url)).hfkit;
  const chunks = sseChunks(EVENTS, shape);
  await consume(await stream(fetchServing(() => bodyOf(chunks))));
  const session = new Session();
  session.connect();
  await session.post("Profiler.enable");
  await session.post("Profiler.setSamplingInterval", { interval: 50 });
  await session.post("Profiler.start");
  for (let i = 0; i < RUNS; i++) await consume(await stream(fetchServing(() => bodyOf(chunks))));
  const { profile } = await session.post("Profiler.stop");
  session.disconnect();
  const perRun = (us) => us / 1000 / RUNS;
  const sites = [...selfTimes(profile, mapped)].filter(([site]) => !site.startsWith("(idle)"));
  const files = new Map();
  for (const [site, us] of sites) files.set(fileOf(site), (files.get(fileOf(site)) ?? 0) + us);
  const top = (entries, n) =>
    [...entries]
      .sort((a, b) => b[1] - a[1])
      .slice(0, n)
      .map(([name, us]) => ({ name, ms: perRun(us) }));
  return { functions: top(sites, 14), files: top(files, 10) };
}

if (isMain(import.meta.url)) {
  process.stdout.write(JSON.stringify(await profileHfkit(process.argv[2])));
}
