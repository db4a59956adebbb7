import { spawn } from "node:child_process";
import { resolve } from "node:path";
import { DEFAULT_TEXT, startMockHub, type MockHub } from "@hfkit/mock-hub";
import { expect } from "vitest";
import { MODELS } from "../app/scenarios.mjs";

/** What app/scenarios.mjs reports, plus what each entry adds. */
export interface AppResult {
  runtime: string;
  resolved?: string;
  crossCopyInstanceof?: boolean;
  chat: { text: string; chunks: number; ms: number };
  linger: { text: string; chunks: number; ms: number };
  inStreamError: {
    thrown: boolean;
    yielded: number;
    name?: string;
    isValidationError?: boolean;
    isInferenceError?: boolean;
  };
  relay: RelayResult;
  relayError: RelayResult;
  task: unknown;
  responses: unknown;
}

/** A `toResponse` stream as app/scenarios.mjs's readRelay reads it. */
export interface RelayResult {
  status: number;
  contentType: string | null;
  events: number;
  text: string;
  last?: string;
  error?: { message: string; type: string; code: string | null };
}

/** The chat relayed as OpenAI's server-sent events, ended by [DONE]; the in-stream error as one error event. */
export function expectRelayed(relay: RelayResult, relayError: RelayResult): void {
  expect(relay).toMatchObject({
    status: 200,
    contentType: "text/event-stream",
    text: DEFAULT_TEXT,
    last: "data: [DONE]",
  });
  expect(relay.events).toBeGreaterThan(2);
  expect(relayError).toMatchObject({ status: 200, contentType: "text/event-stream", text: "" });
  expect(relayError.error).toMatchObject({ type: "invalid_request_error", code: "ValidationError" });
  expect(relayError.last).not.toBe("data: [DONE]");
}

export const BIN = resolve(import.meta.dirname, "../node_modules/.bin");

/** The mock hub on loopback, with a TGI 2.0 model whose server keeps the socket open after the answer. */
export function startHub(): Promise<MockHub> {
  return startMockHub({ models: { [MODELS.linger]: { tgiVersion: "2.0.2", faults: [{ type: "linger" }] } } });
}

/** The three scenarios went as a user expects, and no response body was left open on the hub. */
export async function expectAppWorked(result: AppResult, hub: MockHub): Promise<void> {
  expect(result.chat.text).toBe(DEFAULT_TEXT);
  // Ended, not thrown: without the grace after the finish, the lingering socket would fail the call at its deadline.
  expect(result.linger.text).toBe(DEFAULT_TEXT); // TGI before 2.1 streams its EOS token's text: not part of the answer
  expect(result.inStreamError).toMatchObject({
    thrown: true,
    yielded: 0,
    name: "ValidationError",
    isValidationError: true,
    isInferenceError: true,
  });
  expectRelayed(result.relay, result.relayError);
  expect(result.task).toEqual([expect.any(Number), expect.any(Number), expect.any(Number), expect.any(Number)]);
  expect(result.responses).toBe(DEFAULT_TEXT);
  await expect.poll(() => hub.openStreams(), { timeout: 5_000 }).toBe(0);
}

/** The User-Agent of every chat request the hub received. */
export function chatUserAgents(hub: MockHub): Set<string | undefined> {
  return new Set(hub.requests.filter((r) => r.method === "POST").map((r) => r.headers["user-agent"]));
}

/** Runs `command args` in `cwd` and parses the JSON line it prints last; its stderr is in any failure. */
export async function runJson(command: string, args: string[], cwd: string, timeoutMs = 60_000): Promise<AppResult> {
  const stdout = await run(command, args, cwd, timeoutMs);
  const last = stdout.trim().split("\n").pop() ?? "";
  try {
    return JSON.parse(last) as AppResult;
  } catch {
    throw new Error(`no JSON result from ${command}:\n${stdout}`);
  }
}

/**
 * Runs `command args` in `cwd` (`env` over this process's, a name set to undefined unset) and answers its stdout; a
 * non-zero exit or a timeout fails with its output.
 */
export function run(
  command: string,
  args: string[],
  cwd: string,
  timeoutMs = 60_000,
  env: Record<string, string | undefined> = {},
): Promise<string> {
  return new Promise((resolvePromise, reject) => {
    const child = spawn(command, args, {
      cwd,
      stdio: ["ignore", "pipe", "pipe"],
      env: { ...process.env, NO_COLOR: "1", ...env },
    });
    let stdout = "";
    let stderr = "";
    child.stdout.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    const timer = setTimeout(() => child.kill("SIGKILL"), timeoutMs);
    child.on("error", reject);
    child.on("close", (code, signal) => {
      clearTimeout(timer);
      if (code !== 0)
        return reject(new Error(`${command} ${args.join(" ")} exited ${code ?? signal}\n${stderr}${stdout}`));
      resolvePromise(stdout);
    });
  });
}
