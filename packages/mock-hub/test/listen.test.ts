import { createServer } from "node:net";
import { expect, it } from "vitest";
import { startMockHub, type StartOptions } from "../src/index.js";

/** Whether anything accepts a connection on 127.0.0.1:port. */
function accepts(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const probe = createServer().once("error", () => resolve(true));
    probe.listen(port, "127.0.0.1", () => probe.close(() => resolve(false)));
  });
}

it('a host of "", null or not a string is refused before anything listens, naming `host`', async () => {
  // A fixed free port: had the hub listened on it (on every interface), 127.0.0.1:port would be taken.
  const free = createServer();
  await new Promise<void>((resolve) => free.listen(0, "127.0.0.1", resolve));
  const port = (free.address() as { port: number }).port;
  await new Promise((resolve) => free.close(resolve));
  for (const [host, got] of [
    ["", '""'],
    [" ", '" "'],
    [null, "null"],
    [42, "a number"],
  ] as const) {
    const started = startMockHub({ port, host } as unknown as StartOptions);
    await expect(started, String(host)).rejects.toThrow(`\`host\` must be an address or host name to listen on`);
    await expect(started, String(host)).rejects.toThrow(`(got ${got})`);
    await expect(started).rejects.toBeInstanceOf(typeof host === "string" ? RangeError : TypeError);
    expect(await accepts(port), String(host)).toBe(false);
  }
});

it("the URL is one a client can use: loopback for every interface (0.0.0.0, ::), IPv6 bracketed; `host` says where it listens", async () => {
  for (const [host, url] of [
    ["0.0.0.0", "http://127.0.0.1:"],
    ["::", "http://[::1]:"],
    ["::1", "http://[::1]:"],
  ]) {
    const hub = await startMockHub({ host });
    try {
      expect(hub.url).toBe(`${url}${hub.port}`);
      expect(hub.host).toBe(host);
      expect((await fetch(`${hub.url}/info`)).status).toBe(200);
    } finally {
      await hub.close();
    }
  }
});
