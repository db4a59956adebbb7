import { execFileSync } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";

export const BENCH_DIR = fileURLToPath(new URL("..", import.meta.url));

/** The version of `pkg` as installed for packages/bench. */
export const version = (pkg) =>
  JSON.parse(readFileSync(`${BENCH_DIR}node_modules/${pkg}/package.json`, "utf8")).version;

/** The versions a gateway benchmark names: hfkit, the Portkey gateway, the server it runs on, the OpenAI client. */
export const gatewayVersions = () => ({
  hfkit: version("@hfkit/inference"),
  portkey: version("@portkey-ai/gateway"),
  honoNodeServer: version("@hono/node-server"),
  openai: version("openai"),
});

/**
 * Runs `fn`, and again (up to 3 tries, 3 s apart) if it throws: a `pnpm build` elsewhere in the
 * workspace empties dist/ for a few seconds, and a measurement that lands then fails.
 */
export function retried(fn) {
  for (let attempt = 1; ; attempt++) {
    try {
      return fn();
    } catch (error) {
      if (attempt === 3) throw error;
      process.stderr.write(`  (failed, trying again: ${String(error.message).split("\n")[0]})\n`);
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, 3000);
    }
  }
}

/** Runs `src/<script>` in a fresh Node with `flags`; answers the JSON it prints. */
export function runChild(script, args = [], flags = []) {
  return retried(() => runChildOnce(script, args, flags));
}

function runChildOnce(script, args, flags) {
  const out = execFileSync(
    process.execPath,
    [...flags, fileURLToPath(new URL(script, import.meta.url)), ...args.map(String)],
    {
      cwd: BENCH_DIR,
      encoding: "utf8",
      maxBuffer: 64 * 1024 * 1024,
      stdio: ["ignore", "pipe", "inherit"],
    },
  );
  return JSON.parse(out);
}

/** `step("what")`: a progress line on stderr, with the seconds since `stepper()` was called. */
export function stepper() {
  const started = performance.now();
  return (what) =>
    process.stderr.write(`· ${((performance.now() - started) / 1000).toFixed(0).padStart(3)} s  ${what}\n`);
}

/** True when the module at `url` is the script Node was started with. */
export const isMain = (url) => process.argv[1] === fileURLToPath(url);
