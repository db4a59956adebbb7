import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach } from "vitest";
import { type ChildProcessWithoutNullStreams, spawn } from "node:child_process";
import { fileURLToPath } from "node:url";

/** The built CLI. */
export const CLI = fileURLToPath(new URL("../dist/cli.js", import.meta.url));

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs the built CLI to its end with `stdin` (closed when undefined) and only PATH plus `env`. */
export function hfkit(
  args: string[],
  { stdin, env = {} }: { stdin?: string; env?: Record<string, string> } = {},
): Promise<Run> {
  const child = new Child(args, env);
  child.process.stdin.end(stdin);
  return child.exited.then(({ code }) => ({ code, stdout: child.stdout, stderr: child.stderr }));
}

/** A running CLI to talk to: write to its stdin, wait for its output, signal it. */
export class Child {
  readonly process: ChildProcessWithoutNullStreams;
  stdout = "";
  stderr = "";
  /** Its exit code and when it exited (`performance.now()`). */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; at: number }>;
  private readonly waiters = new Set<() => void>();

  constructor(args: string[], env: Record<string, string> = {}) {
    this.process = spawn(process.execPath, [CLI, ...args], { env: { PATH: process.env.PATH, ...env }, stdio: "pipe" });
    const timer = setTimeout(() => this.process.kill("SIGKILL"), 15_000);
    const changed = () => this.waiters.forEach((check) => check());
    this.process.stdout.setEncoding("utf8").on("data", (c: string) => ((this.stdout += c), changed()));
    this.process.stderr.setEncoding("utf8").on("data", (c: string) => ((this.stderr += c), changed()));
    this.exited = new Promise((resolve, reject) => {
      this.process.on("error", reject);
      this.process.on("exit", (code, signal) => {
        const at = performance.now();
        clearTimeout(timer);
        // "exit" comes before the pipes are drained: wait for "close" so stdout / stderr are complete.
        this.process.on("close", () => resolve({ code, signal, at }));
        changed();
      });
    });
  }

  /** Resolves when `done()` holds (checked at each output), or rejects after `ms` with what was seen. */
  until(done: () => boolean, ms = 10_000): Promise<void> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(check);
        reject(new Error(`timed out; stdout: ${JSON.stringify(this.stdout)}; stderr: ${JSON.stringify(this.stderr)}`));
      }, ms);
      const check = (): void => {
        if (!done()) return;
        clearTimeout(timer);
        this.waiters.delete(check);
        resolve();
      };
      this.waiters.add(check);
      check();
    });
  }

  write(text: string): void {
    this.process.stdin.write(text);
  }
}

/** Waits for a `hfkit mock-hub` child's export lines; its URL, the first line. */
export async function started(hub: Child): Promise<string> {
  await hub.until(() => /^export HF_INFERENCE_ENDPOINT=.*\n/m.test(hub.stdout));
  return hub.stdout.split("\n")[0] ?? "";
}

/** A one-message chat for `model`, posted to the router route of the mock hub at `url`. */
export const postChat = (url: string, model: string): Promise<Response> =>
  fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    body: JSON.stringify({ model, messages: [{ role: "user", content: "hi" }] }),
  });

/** Polls `done` every 10 ms for up to `ms`; answers whether it held. */
export async function poll(done: () => boolean, ms = 2000): Promise<boolean> {
  for (const end = Date.now() + ms; Date.now() < end; await new Promise((r) => setTimeout(r, 10)))
    if (done()) return true;
  return done();
}

/** A mock hub for a test file: started once, reset before each test, closed at the end. */
export function useHub(): () => MockHub {
  let hub: MockHub | undefined;
  beforeAll(async () => {
    hub = await startMockHub();
  });
  afterAll(() => hub?.close());
  beforeEach(() => hub?.reset());
  return () => {
    if (!hub) throw new Error("the mock hub is not started");
    return hub;
  };
}
