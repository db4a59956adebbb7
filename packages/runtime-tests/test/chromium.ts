import { execFileSync } from "node:child_process";
import { accessSync, constants, existsSync } from "node:fs";
import { delimiter, join } from "node:path";

const NAMES = ["chromium", "chromium-browser", "google-chrome"];
const INSTRUCTION =
  "No Chromium found: set CHROME_PATH to a Chromium or Chrome binary, or install one (Debian/Ubuntu: apt-get install chromium)";

/** Flags that keep a headless Chromium quiet and offline (see TOOLCHAIN.md). */
export const CHROMIUM_ARGS = [
  "--no-sandbox",
  "--disable-gpu",
  "--disable-quic",
  "--no-first-run",
  "--disable-background-networking",
  "--disable-component-update",
  "--disable-sync",
];

function isExecutable(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/** CHROME_PATH, then the first of chromium, chromium-browser, google-chrome on PATH. */
export function findChromium(): string | undefined {
  const fromEnv = process.env.CHROME_PATH;
  if (fromEnv) {
    if (!isExecutable(fromEnv)) throw new Error(`CHROME_PATH=${fromEnv} is not an executable file`);
    return fromEnv;
  }
  const dirs = (process.env.PATH ?? "").split(delimiter).filter(Boolean);
  for (const name of NAMES) {
    for (const dir of dirs) if (isExecutable(join(dir, name))) return join(dir, name);
  }
  return undefined;
}

/** How to run apt-get here: directly as root, through passwordless sudo, or not at all. */
function aptRunner(): string[] | undefined {
  if (!existsSync("/etc/debian_version") || !isExecutable("/usr/bin/apt-get")) return undefined;
  if (process.getuid?.() === 0) return [];
  try {
    execFileSync("sudo", ["-n", "true"], { stdio: "ignore" });
    return ["sudo", "-n"];
  } catch {
    return undefined;
  }
}

function apt(prefix: string[], args: string[]): void {
  const [command, ...rest] = [...prefix, "apt-get", ...args];
  execFileSync(command!, rest, {
    stdio: ["ignore", "ignore", "pipe"],
    env: { ...process.env, DEBIAN_FRONTEND: "noninteractive" },
  });
}

/** A Chromium to drive: found, or on Debian with a usable apt installed from Debian's archive (saying so). */
export function findOrInstallChromium(): string {
  const found = findChromium();
  if (found) return found;
  const prefix = aptRunner();
  if (!prefix) throw new Error(INSTRUCTION);
  console.warn("No Chromium on CHROME_PATH or PATH: installing Debian's chromium with apt-get (once; about a minute)");
  apt(prefix, ["update"]);
  apt(prefix, ["install", "-y", "--no-install-recommends", "chromium"]);
  const installed = findChromium();
  if (!installed) throw new Error(`apt-get installed chromium but it is not on PATH. ${INSTRUCTION}`);
  return installed;
}
