/**
 * Issue 38, classes 8 and 9, through the proxy: an upstream answering with a `model`, an `x-inference-provider` and a
 * finish reason each holding the caller's own key, another `hf_…` token, a `Bearer …` credential and 100 KB of text
 * puts none of it in the log or `/metrics`; an upstream naming a new provider at each answer (and clients naming a new
 * model at each request) makes at most 32 values and `other` of each label.
 */
import { createServer, request, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_LABEL_VALUES } from "../src/metrics";
import { startProxy } from "../src/index";
import { messages, within } from "./helpers";

const KEY = "sk-callers-own-key-2718281828";
const OTHER = "hf_SomebodyElsesToken0123456789abcdef";
const SECRETS = [KEY, OTHER, "bearer-secret-value", "sk-callers"];
const hostile = (what: string, size = 100_000): string =>
  `${what} ${KEY} ${OTHER} Bearer bearer-secret-value ${"y".repeat(120)}${KEY}${"z".repeat(size)}`;

/** The provider the upstream names in its next answer. */
let providerOf = (): string => hostile("provider", 4000);
let upstream: Server;
let routerUrl: string;
type Proxy = Awaited<ReturnType<typeof startProxy>>;
const proxies: Proxy[] = [];

function answer(stream: boolean, res: ServerResponse): void {
  res.setHeader("x-inference-provider", providerOf());
  const model = hostile("model");
  if (stream) {
    res.writeHead(200, { "content-type": "text/event-stream" });
    const chunk = (delta: object, finish: string | null) => ({
      id: "x",
      object: "chat.completion.chunk",
      model,
      choices: [{ index: 0, delta, finish_reason: finish }],
    });
    for (const c of [chunk({ role: "assistant", content: "Hi" }, null), chunk({}, hostile("finish"))])
      res.write(`data: ${JSON.stringify(c)}\n\n`);
    return void res.end("data: [DONE]\n\n");
  }
  const choices = [{ index: 0, message: { role: "assistant", content: "Hi" }, finish_reason: hostile("finish") }];
  const usage = { prompt_tokens: 3, completion_tokens: 4, total_tokens: 7 };
  res
    .writeHead(200, { "content-type": "application/json" })
    .end(JSON.stringify({ id: "x", object: "chat.completion", model, choices, usage }));
}

beforeAll(async () => {
  upstream = createServer((req, res) => {
    let text = "";
    req.setEncoding("utf8").on("data", (c: string) => (text += c));
    req.on("end", () => answer((JSON.parse(text) as { stream?: boolean }).stream === true, res));
  });
  await new Promise<void>((resolve) => upstream.listen(0, "127.0.0.1", resolve));
  routerUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await Promise.all(proxies.map((p) => p.close()));
  await new Promise((resolve) => upstream.close(resolve));
});

async function proxy(log: "json" | "text", lines: string[]): Promise<Proxy> {
  const started = await startProxy({
    target: "https://router.huggingface.co",
    routerUrl,
    maxRetries: 0,
    metrics: true,
    log,
    logTo: (l) => lines.push(l),
  });
  proxies.push(started);
  return started;
}

function call(to: Proxy, method: string, path: string, body?: unknown): Promise<{ status: number; text: string }> {
  return within(
    new Promise((resolve, reject) => {
      const headers = { "content-type": "application/json", authorization: `Bearer ${KEY}` };
      const req = request(`${to.url}${path}`, { method, headers }, (res) => {
        let text = "";
        res.setEncoding("utf8").on("data", (c: string) => (text += c));
        res.on("end", () => resolve({ status: res.statusCode ?? 0, text }));
      });
      req.on("error", reject);
      req.end(body === undefined ? undefined : JSON.stringify(body));
    }),
  );
}

/** Waits until `lines` has `n` lines (each is written once its answer is sent, maybe after the client read it). */
async function lines(of: string[], n: number): Promise<string[]> {
  await within(
    (async () => {
      while (of.length < n) await new Promise((r) => setTimeout(r, 5));
    })(),
  );
  return of;
}

/** Each series of `metric` in Prometheus' text format: its labels as written, `le` left out. */
function series(text: string, metric: string): Set<string> {
  const out = new Set<string>();
  for (const m of text.matchAll(new RegExp(`^${metric}(?:_bucket|_sum|_count)?\\{(.*)\\} `, "gm")))
    out.add(m[1]!.replace(/,?le="[^"]*"/, ""));
  return out;
}

describe("a hostile upstream's words in the proxy's log and metrics", () => {
  it.each(["json", "text"] as const)(
    "%s log and /metrics: no credential, no line break, nothing over 200 characters",
    async (format) => {
      const logged: string[] = [];
      const p = await proxy(format, logged);
      expect((await call(p, "POST", "/v1/chat/completions", { model: "org/model", messages })).status).toBe(200);
      expect(
        (await call(p, "POST", "/v1/chat/completions", { model: "org/model", messages, stream: true })).status,
      ).toBe(200);
      const [whole, streamed] = await lines(logged, 2);
      for (const line of [whole!, streamed!]) {
        for (const secret of SECRETS) expect(line).not.toContain(secret);
        expect(line).not.toMatch(/[\n\r]/);
        expect(line).toMatch(/provider[=":]+provider \[redacted\] \[redacted\] Bearer \[redacted\]/);
        expect(line.length).toBeLessThan(600);
      }
      if (format === "json") expect((JSON.parse(whole!) as { provider: string }).provider).toHaveLength(200);
      const { text } = await call(p, "GET", "/metrics");
      for (const secret of SECRETS) expect(text).not.toContain(secret);
      for (const m of text.matchAll(/provider="([^"]*)"/g)) expect(m[1]!.length).toBeLessThanOrEqual(200);
    },
  );

  it("1,000 provider names from the upstream and 1,000 models from clients: at most 32 of each and `other` per metric", async () => {
    const logged: string[] = [];
    const p = await proxy("json", logged);
    let n = 0;
    providerOf = () => `provider-${n++}`;
    try {
      for (let i = 0; i < 1000; i += 20) {
        const batch = Array.from({ length: 20 }, (_, j) =>
          call(p, "POST", "/v1/chat/completions", { model: `org/model-${i + j}`, messages }),
        );
        for (const { status } of await Promise.all(batch)) expect(status).toBe(200);
      }
    } finally {
      providerOf = () => hostile("provider", 4000);
    }
    await lines(logged, 1000);
    const { text } = await call(p, "GET", "/metrics");
    for (const metric of [
      "hfkit_proxy_requests_total",
      "hfkit_proxy_request_duration_seconds",
      "hfkit_proxy_tokens_total",
    ]) {
      const all = series(text, metric);
      const providers = new Set([...all].map((s) => /provider="([^"]*)"/.exec(s)?.[1]));
      const models = new Set([...all].map((s) => /model="([^"]*)"/.exec(s)?.[1]));
      expect(providers.size).toBe(MAX_LABEL_VALUES + 1);
      expect(models.size).toBe(MAX_LABEL_VALUES + 1);
      expect(providers).toContain("other");
      expect(models).toContain("other");
    }
    expect(series(text, "hfkit_proxy_requests_total").size).toBeLessThanOrEqual(2 * (MAX_LABEL_VALUES + 1));
  }, 120_000); // a hang bound for 1,000 requests on a loaded machine, not a speed check
});
