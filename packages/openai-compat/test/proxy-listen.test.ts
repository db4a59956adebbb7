/** Where the proxy listens: loopback unless a host is named, a named host that is an address, and a URL clients can use. */
import { once } from "node:events";
import { get } from "node:http";
import { Server } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { InputError } from "@hfkit/inference";
import { afterEach, describe, expect, it, vi } from "vitest";
import { createProxy, startProxy } from "../src/index";
import { within } from "./helpers";

/** Nothing is forwarded in these tests: the target is never reached. */
const TARGET = "http://127.0.0.1:9";

afterEach(() => vi.restoreAllMocks());

/** The status of `GET /v1/models` sent to 127.0.0.1:`port` with the Host header `host`. */
function statusVia127(port: number, host: string): Promise<number> {
  return new Promise((resolve, reject) => {
    get({ host: "127.0.0.1", port, path: "/v1/models", headers: { host } }, (res) => {
      res.resume();
      resolve(res.statusCode ?? 0);
    }).on("error", reject);
  });
}

describe("listen binds loopback unless a host is named", () => {
  const sockPath = join(tmpdir(), `hfkit-proxy-${process.pid}-${Date.now()}.sock`);
  const forms: [string, unknown[], string][] = [
    ["listen()", [], "127.0.0.1"],
    ["listen(cb)", ["cb"], "127.0.0.1"],
    ["listen(0)", [0], "127.0.0.1"],
    ['listen("0")', ["0"], "127.0.0.1"],
    ["listen(0, cb)", [0, "cb"], "127.0.0.1"],
    ["listen(0, undefined, cb)", [0, undefined, "cb"], "127.0.0.1"],
    ["listen(0, 511, cb)", [0, 511, "cb"], "127.0.0.1"],
    ["listen({ port: 0 })", [{ port: 0 }], "127.0.0.1"],
    ["listen({ port: 0 }, cb)", [{ port: 0 }, "cb"], "127.0.0.1"],
    ['listen(0, "0.0.0.0")', [0, "0.0.0.0"], "0.0.0.0"],
    ['listen({ port: 0, host: "0.0.0.0" })', [{ port: 0, host: "0.0.0.0" }], "0.0.0.0"],
    ["listen(path)", [`${sockPath}-a`], `${sockPath}-a`],
    ["listen({ path })", [{ path: `${sockPath}-b` }], `${sockPath}-b`],
  ];

  it.each(forms)("%s", async (_, args, expected) => {
    const server = createProxy({ target: TARGET });
    let called = false;
    const real = args.map((a) => (a === "cb" ? () => (called = true) : a));
    (server.listen as (...a: unknown[]) => unknown)(...real);
    await once(server, "listening");
    try {
      const address = server.address();
      expect(typeof address === "string" ? address : address?.address).toBe(expected);
      if (args.includes("cb")) expect(called).toBe(true);
    } finally {
      await server.shutdown();
    }
  });
});

const REFUSED: [string, unknown][] = [
  ['""', ""],
  ['" "', " "],
  ["null", null],
  ["42", 42],
  ["{}", {}],
];

const expectHostRefused = (error: unknown): void => {
  expect(error).toBeInstanceOf(InputError);
  expect(error).toMatchObject({
    field: "host",
    message: expect.stringMatching(
      /^`host` must be a non-blank string naming the address to bind: 127\.0\.0\.1 \(the default\)/,
    ),
  });
};

describe("a named host that names no address is refused before anything listens", () => {
  it.each(REFUSED)("startProxy({ host: %s }) rejects with an InputError", async (_, host) => {
    const listen = vi.spyOn(Server.prototype, "listen");
    const error = await startProxy({ target: TARGET, host: host as string }).catch((e: unknown) => e);
    expectHostRefused(error);
    expect(listen).not.toHaveBeenCalled();
  });

  const listenForms: [string, unknown[]][] = [
    ...REFUSED.filter(([, host]) => typeof host !== "number").map(([name, host]): [string, unknown[]] => [
      `listen(0, ${name})`,
      [0, host],
    ]),
    ...REFUSED.map(([name, host]): [string, unknown[]] => [`listen({ port: 0, host: ${name} })`, [{ port: 0, host }]]),
  ];

  it.each(listenForms)("createProxy().%s throws an InputError", (_, args) => {
    const listen = vi.spyOn(Server.prototype, "listen");
    const server = createProxy({ target: TARGET });
    expect(() => (server.listen as (...a: unknown[]) => unknown)(...args)).toThrow(InputError);
    try {
      (server.listen as (...a: unknown[]) => unknown)(...args);
    } catch (error) {
      expectHostRefused(error);
    }
    expect(listen).not.toHaveBeenCalled();
    expect(server.listening).toBe(false);
  });
});

describe("the URL clients use", () => {
  it.each([
    [undefined, "127.0.0.1", /^http:\/\/127\.0\.0\.1:\d+$/],
    ["::1", "::1", /^http:\/\/\[::1\]:\d+$/],
    ["0.0.0.0", "0.0.0.0", /^http:\/\/127\.0\.0\.1:\d+$/],
    ["::", "::", /^http:\/\/\[::1\]:\d+$/],
  ])("host %s: binds %s, and the URL is %s", async (host, bound, url) => {
    const proxy = await startProxy({ target: TARGET, models: ["m"], ...(host === undefined ? {} : { host }) });
    try {
      expect(proxy.server.address()).toMatchObject({ address: bound });
      expect(proxy.url).toMatch(url);
      expect(proxy.server.url()).toBe(proxy.url);
    } finally {
      await proxy.close();
    }
  });

  it("a wildcard bind answers on its URL's port through 127.0.0.1", async () => {
    const proxy = await startProxy({ target: TARGET, models: ["m"], host: "0.0.0.0" });
    try {
      const { host, port } = new URL(proxy.url);
      expect(await within(statusVia127(Number(port), host))).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  it("an IPv6 address's own URL (bracketed) passes the Host check", async () => {
    const proxy = await startProxy({ target: TARGET, models: ["m"], host: "::ffff:127.0.0.1" });
    try {
      expect(proxy.url).toMatch(/^http:\/\/\[::ffff:127\.0\.0\.1\]:\d+$/);
      const { host, port } = new URL(proxy.url);
      expect(await within(statusVia127(Number(port), host))).toBe(200);
    } finally {
      await proxy.close();
    }
  });

  it("server.url() is undefined until the proxy listens", () => {
    expect(createProxy({ target: TARGET }).url()).toBeUndefined();
  });
});

describe("startProxy on a port in use", () => {
  it("rejects with the EADDRINUSE error instead of crashing the process", async () => {
    const first = await startProxy({ target: TARGET });
    try {
      const port = Number(new URL(first.url).port);
      const error = await startProxy({ target: TARGET, port }).catch((e: unknown) => e);
      expect(error).toMatchObject({ code: "EADDRINUSE" });
    } finally {
      await first.close();
    }
  });
});
