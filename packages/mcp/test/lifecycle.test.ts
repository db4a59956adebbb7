/** A failed connect stops the server's process, and waits for it to be gone, before it rejects. */
import { AbortError } from "@hfkit/inference";
import { afterEach, describe, expect, it } from "vitest";
import { connectMcp, McpTimeoutError } from "../src";
import { rejection } from "./helpers";
import { hostileStdio, isRunning, scratch } from "./hostile";

const made: ReturnType<typeof scratch>[] = [];
function files() {
  const own = scratch();
  made.push(own);
  return own;
}
afterEach(() => {
  for (const own of made.splice(0)) {
    const pid = startedPid(own);
    if (pid !== undefined && isRunning(pid)) process.kill(pid, "SIGKILL"); // a failed test leaves nothing behind
    own.remove();
  }
});

describe("a connect that fails stops the server's process before it rejects", () => {
  // The limit leaves the child time to start and write its pid: what is checked is that it is gone afterwards.
  it("when the server never answers initialize (connectTimeout)", async () => {
    const own = files();
    const error = await rejection(connectMcp(hostileStdio(own, "--silent"), { connectTimeout: 2_000 }));
    expect(error).toBeInstanceOf(McpTimeoutError);
    const pid = own.pid();
    expect(() => process.kill(pid, 0)).toThrow(); // gone, not a zombie waiting to be reaped
  });

  it("when the server ignores the end of its stdin and SIGTERM: it is killed", async () => {
    const own = files();
    const error = await rejection(connectMcp(hostileStdio(own, "--silent", "--stubborn"), { connectTimeout: 2_000 }));
    expect(error).toBeInstanceOf(McpTimeoutError);
    const pid = own.pid();
    expect(() => process.kill(pid, 0)).toThrow();
  }, 15_000);

  it("when connecting is aborted", async () => {
    const own = files();
    const controller = new AbortController();
    const connecting = rejection(
      connectMcp(hostileStdio(own, "--silent", "--stubborn"), { signal: controller.signal }),
    );
    await waitForPid(own);
    controller.abort();
    expect(await connecting).toBeInstanceOf(AbortError);
    const pid = own.pid();
    expect(() => process.kill(pid, 0)).toThrow();
  }, 15_000);
});

/** The child's pid, once it has written it. */
function startedPid(own: { pid(): number }): number | undefined {
  try {
    return own.pid() || undefined;
  } catch {
    return undefined; // not started yet
  }
}

/** Until the child has written its pid (it has started). */
async function waitForPid(own: { pid(): number }): Promise<void> {
  while (startedPid(own) === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
}
