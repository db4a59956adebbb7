// The load benchmark's processes: the mock hub, `hfkit proxy` (its CLI, as users start it), the Portkey
// gateway (its bin, as portkey.mjs starts it) and the clients; each one's CPU time and RSS from /proc.
import { fork, spawn } from "node:child_process";
import { once } from "node:events";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

const here = (file) => fileURLToPath(new URL(file, import.meta.url));
const HFKIT_BIN = here("../../cli/bin/hfkit.mjs");
const PORTKEY_BIN = fileURLToPath(import.meta.resolve("@portkey-ai/gateway/build/start-server.js"));
/** Serves Portkey with the pinned `@hono/node-server` and binds it to loopback (see portkey-preload.mjs). */
const PORTKEY_PRELOAD = here("portkey-preload.mjs");
const TICKS_PER_S = 100;

/** Every child started: killed if this process exits without closing them (a crash mid-run). */
const children = new Set();
process.once("exit", () => children.forEach((child) => child.kill()));
const tracked = (child) => (children.add(child), child.once("exit", () => children.delete(child)), child);

/** CPU seconds (user + system) the process has used so far. */
export function cpuSeconds(pid) {
  const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
  const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
  return (Number(fields[11]) + Number(fields[12])) / TICKS_PER_S;
}

/** Resident memory, MB. */
export function rssMB(pid) {
  const kB = /VmRSS:\s+(\d+)/.exec(readFileSync(`/proc/${pid}/status`, "utf8"))?.[1];
  return Number(kB) / 1024;
}

/** A child's first IPC message, or its exit (an error with the end of its stderr). */
async function firstMessage(child, what) {
  let log = "";
  child.stderr?.on("data", (data) => (log = (log + data).slice(-2000)));
  const [message] = await Promise.race([
    once(child, "message"),
    once(child, "exit").then(([code]) =>
      Promise.reject(new Error(`${what} exited (${code}) before it was ready:\n${log}`)),
    ),
  ]);
  return message;
}

/** Stops a child: `exit` over IPC when it listens for it, else SIGTERM; waits for its exit. */
async function stop(child, viaIpc) {
  if (child.exitCode !== null) return;
  const exited = once(child, "exit");
  if (viaIpc && child.connected) child.send("exit");
  else child.kill("SIGTERM");
  await exited;
}

export async function startHub(paceMs) {
  const child = tracked(fork(here("load-hub.mjs"), [String(paceMs)], { stdio: ["ignore", "inherit", "pipe", "ipc"] }));
  const { url } = await firstMessage(child, "the mock hub");
  return { name: "mock hub", pid: child.pid, url, close: () => stop(child, true) };
}

/**
 * `hfkit proxy --target <hub>`, or with `build` (another build's `dist/index.js`) its `startProxy` in
 * load-proxy.mjs: the URL it prints is where clients go; `--cpu-prof` into `profileDir` when given.
 */
export async function startHfkit(hubUrl, profileDir, build) {
  const flags = profileDir ? ["--cpu-prof", `--cpu-prof-dir=${profileDir}`] : [];
  const args = build ? [here("load-proxy.mjs"), build, hubUrl] : [HFKIT_BIN, "proxy", "--target", hubUrl];
  const child = tracked(spawn(process.execPath, [...flags, ...args], { stdio: ["ignore", "pipe", "pipe"] }));
  let log = "";
  child.stderr.on("data", (data) => (log = (log + data).slice(-2000)));
  const [line] = await Promise.race([
    once(child.stdout, "data"),
    once(child, "exit").then(([code]) => Promise.reject(new Error(`hfkit proxy exited (${code}):\n${log}`))),
  ]);
  // A proxy that dies mid-run says why before the run fails on its missing /proc entry.
  child.once(
    "exit",
    (code, signal) => child.killed || process.stderr.write(`hfkit proxy exited (${code ?? signal}):\n${log}\n`),
  );
  return { name: "hfkit proxy", pid: child.pid, url: String(line).trim(), close: () => stop(child, false) };
}

/** Its bin, `start-server.js --port=0 --headless`, as the failover bench starts it. */
export async function startPortkey() {
  const child = tracked(
    fork(PORTKEY_BIN, ["--port=0", "--headless"], {
      execArgv: ["--import", PORTKEY_PRELOAD],
      stdio: ["ignore", "ignore", "pipe", "ipc"],
    }),
  );
  const { port } = await firstMessage(child, "the Portkey gateway");
  return { name: "Portkey gateway", pid: child.pid, url: `http://127.0.0.1:${port}`, close: () => stop(child, false) };
}

/** The clients' process: `run(job)` answers what load-client.mjs measured. */
export async function startClients() {
  const child = tracked(fork(here("load-client.mjs"), [], { stdio: ["ignore", "inherit", "inherit", "ipc"] }));
  const pending = new Map();
  let next = 0;
  child.on("message", ({ id, result }) => pending.get(id)?.(result));
  return {
    pid: child.pid,
    run: (job) => new Promise((resolve) => (pending.set(++next, resolve), child.send({ ...job, id: next }))),
    close: () => stop(child, true),
  };
}
