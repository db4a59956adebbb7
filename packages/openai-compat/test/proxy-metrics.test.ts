import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { createHfFetch, startProxy } from "../src/index";
import { messages, useHub, within } from "./helpers";

// Whether prom-client was loaded: it must be, only by a proxy with metrics on.
const promClient = vi.hoisted(() => ({ loaded: false }));
vi.mock("prom-client", async (real) => {
  promClient.loaded = true;
  return real();
});

const ctx = useHub();
type Proxy = Awaited<ReturnType<typeof startProxy>>;
let plain: Proxy;
let metered: Proxy;

beforeAll(async () => {
  plain = await startProxy({ target: ctx.hub.url, maxRetries: 0 });
});
afterAll(() => Promise.all([plain.close(), metered?.close()]));

function call(proxy: Proxy, method: string, path: string, body?: unknown) {
  return within(
    new Promise<{ status: number; type: string; text: string }>((resolve, reject) => {
      const req = request(
        `${proxy.url}${path}`,
        { method, headers: { "content-type": "application/json", authorization: "Bearer hf_caller" } },
        (res) => {
          let text = "";
          res.setEncoding("utf8").on("data", (c: string) => (text += c));
          res.on("end", () =>
            resolve({ status: res.statusCode ?? 0, type: String(res.headers["content-type"]), text }),
          );
        },
      );
      req.on("error", reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    }),
  );
}

/** Each sample of Prometheus' text format, `name{labels}` (labels as written) to its value. */
function samples(text: string): Map<string, number> {
  const out = new Map<string, number>();
  for (const line of text.split("\n")) {
    const m = /^([a-z_:]+(?:\{.*\})?) (\S+)$/.exec(line);
    if (m) out.set(m[1]!, Number(m[2]));
  }
  return out;
}

async function scrape(): Promise<Map<string, number>> {
  const res = await call(metered, "GET", "/metrics");
  expect(res.status).toBe(200);
  expect(res.type).toMatch(/^text\/plain; version=0\.0\.4/);
  return samples(res.text);
}

const CHAT = 'route="/v1/chat/completions",model="hfkit/tgi-3.2",provider=""';

describe("the proxy's metrics", () => {
  it("are off by default: /metrics is 404, and neither the proxy nor the fetch adapter loads prom-client", async () => {
    expect((await call(plain, "GET", "/metrics")).status).toBe(404);
    expect((await call(plain, "POST", "/v1/chat/completions", { model: "hfkit/tgi-3.2", messages })).status).toBe(200);
    const hfFetch = createHfFetch({ baseUrl: ctx.hub.url, maxRetries: 0 });
    const res = await hfFetch("http://localhost/v1/chat/completions", {
      method: "POST",
      body: JSON.stringify({ model: "hfkit/tgi-3.2", messages }),
    });
    expect(res.status).toBe(200);
    expect(promClient.loaded).toBe(false);
  });

  it("on: requests, durations, first chunks and tokens move, by route, model, provider and outcome", async () => {
    metered = await startProxy({ target: ctx.hub.url, maxRetries: 0, metrics: true });
    const before = await scrape();
    expect(promClient.loaded).toBe(true);
    const at = (s: Map<string, number>, key: string): number => s.get(key) ?? 0;
    const stream = { model: "hfkit/tgi-3.2", messages, stream: true, stream_options: { include_usage: true } };
    expect((await call(metered, "POST", "/v1/chat/completions", stream)).status).toBe(200);
    expect((await call(metered, "POST", "/v1/chat/completions", { model: "hfkit/tgi-3.2", messages })).status).toBe(
      200,
    );
    ctx.hub.inject({ type: "serverError", status: 502 }, { model: "hfkit/tgi-3.2", times: 1 });
    expect((await call(metered, "POST", "/v1/chat/completions", { model: "hfkit/tgi-3.2", messages })).status).toBe(
      502,
    );
    expect((await call(metered, "POST", "/nowhere", {})).status).toBe(404);
    // Recorded once each answer is sent, maybe just after the client read it.
    await new Promise((r) => setTimeout(r, 50));
    const after = await scrape();
    const moved = (key: string): number => at(after, key) - at(before, key);
    expect(moved(`hfkit_proxy_requests_total{${CHAT},outcome="ok"}`)).toBe(2);
    expect(moved(`hfkit_proxy_requests_total{${CHAT},outcome="ServerError"}`)).toBe(1);
    expect(moved('hfkit_proxy_requests_total{route="other",model="",provider="",outcome="http_404"}')).toBe(1);
    expect(moved(`hfkit_proxy_request_duration_seconds_count{${CHAT},outcome="ok"}`)).toBe(2);
    expect(moved(`hfkit_proxy_request_duration_seconds_bucket{le="+Inf",${CHAT},outcome="ok"}`)).toBe(2);
    expect(moved(`hfkit_proxy_request_duration_seconds_sum{${CHAT},outcome="ok"}`)).toBeGreaterThan(0);
    expect(moved(`hfkit_proxy_time_to_first_chunk_seconds_count{${CHAT}}`)).toBe(1);
    expect(moved(`hfkit_proxy_tokens_total{${CHAT},type="output"}`)).toBeGreaterThan(0);
    expect(moved(`hfkit_proxy_tokens_total{${CHAT},type="input"}`)).toBeGreaterThan(0);
  });

  it("a scrape is not counted, and its registry is the proxy's own", async () => {
    const once = await scrape();
    const twice = await scrape();
    const requests = (s: Map<string, number>) => [...s].filter(([k]) => k.startsWith("hfkit_proxy_requests_total"));
    expect(requests(twice)).toEqual(requests(once));
    const { register } = await import("prom-client");
    expect(await register.getMetricsAsJSON()).not.toContainEqual(
      expect.objectContaining({ name: "hfkit_proxy_requests_total" }),
    );
  });
});
