import { describe, expect, it } from "vitest";
import { Child, hfkit, useHub } from "./run";

const hub = useHub();

/** The commands that listen, with the flags each needs besides --host, and why the network must not reach it. */
const SERVERS = [
  {
    name: "proxy",
    flags: () => ["--target", hub().url],
    risk: "anyone there can use it, and callers' tokens cross the network in clear text",
  },
  // --quiet: no log line per request on stderr, which the test reads for the warning alone.
  { name: "mock-hub", flags: () => ["--quiet"], risk: "the mock hub has no authentication" },
];
// Several servers start and stop in each test: a bound against a hang, not a measure of speed.
const LONG = 30_000;

/** A URL without its port, which is any free one. */
const origin = (url: string) => url.replace(/:\d+$/, "");

/** Starts a server with `args`, reads the URL it prints, sends it one request, stops it (Ctrl-C): what it printed. */
/** The URL a server prints first (the mock hub prints the lines to export after it). */
const firstLine = (stdout: string): string => stdout.split("\n")[0]!.trim();

async function listening(
  args: string[],
): Promise<{ url: string; stderr: string; status: number; code: number | null }> {
  const child = new Child([...args, "--port", "0"]);
  const ended = child.exited.then(() => Promise.reject(new Error(`exited before listening: ${child.stderr}`)));
  ended.catch(() => {});
  let status = 0;
  try {
    await Promise.race([child.until(() => child.stdout.endsWith("\n")), ended]);
    ({ status } = await fetch(`${firstLine(child.stdout)}/info`));
  } finally {
    child.process.kill("SIGINT");
  }
  // Exited: both pipes are drained, so a warning written after the URL is in stderr.
  const { code } = await child.exited;
  return { url: firstLine(child.stdout), stderr: child.stderr, status, code };
}

describe.each(SERVERS)("hfkit $name", ({ name, flags, risk }) => {
  it(
    '--host "" is bad usage (exit 2) naming --host, before anything listens',
    async () => {
      for (const host of ["", " "]) {
        const run = await hfkit([name, ...flags(), "--host", host]);
        expect(run).toMatchObject({ code: 2, stdout: "" });
        expect(run.stderr).toBe(
          `hfkit: --host must be an address or host name to listen on: 127.0.0.1 (the default), ::1, or 0.0.0.0 / :: for every interface (got "${host}")\n`,
        );
      }
    },
    LONG,
  );

  it(
    "--host 0.0.0.0 or ::: every interface, said in a warning; the URL printed is loopback's",
    async () => {
      for (const [host, client] of [
        ["0.0.0.0", "127.0.0.1"],
        ["::", "[::1]"],
      ] as const) {
        const { url, stderr, status, code } = await listening([name, ...flags(), "--host", host]);
        expect(origin(url), host).toBe(`http://${client}`);
        expect(stderr, host).toBe(
          `hfkit: warning: listening on every interface (${host}), reachable from the network: ${risk}\n`,
        );
        expect([status > 0, code], host).toEqual([true, 0]);
      }
    },
    LONG,
  );

  it(
    "on loopback, no warning: 127.0.0.1 by default; --host ::1 (or [::1]) prints http://[::1]:PORT",
    async () => {
      const cases = [
        [[], "http://127.0.0.1"],
        [["--host", "::1"], "http://[::1]"],
        [["--host", "[::1]"], "http://[::1]"],
      ] as const;
      for (const [host, client] of cases) {
        const { url, stderr, status, code } = await listening([name, ...flags(), ...host]);
        expect(origin(url), host.join(" ")).toBe(client);
        expect(stderr, host.join(" ")).toBe("");
        expect([status > 0, code], host.join(" ")).toEqual([true, 0]);
      }
    },
    LONG,
  );
});
