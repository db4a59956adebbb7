import { execFileSync } from "node:child_process";
import { fileURLToPath } from "node:url";

export const BENCH_DIR = fileURLToPath(new URL("..", import.meta.url));

/** Runs `src/<script>` in a fresh Node with `flags`; answers the JSON it prints. */
export function runChild(script, args = [], flags = []) {
  const out = execFileSync(process.execPath, [...flags, fileURLToPath(new URL(script, import.meta.url)), ...args.map(String)], {
    cwd: BENCH_DIR,
    encoding: "utf8",
    maxBuffer: 64 * 1024 * 1024,
    stdio: ["ignore", "pipe", "inherit"],
  });
  return JSON.parse(out);
}

/** True when the module at `url` is the script Node was started with. */
export const isMain = (url) => process.argv[1] === fileURLToPath(url);
