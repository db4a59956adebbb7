import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_TEXT, type MockHub } from "@hfkit/mock-hub";
import { EdgeRuntime } from "edge-runtime";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, beforeEach, expect, inject, it } from "vitest";
import { bundle, EDGE, WORKERD } from "./bundle";
import { expectAppWorked, expectRelayed, startHub, type AppResult } from "./harness";
import { readRelay } from "../app/scenarios.mjs";
import { fetchToHub, runtimeSnippet } from "./snippets";

const appDir = inject("appDir");
let hub: MockHub;
beforeAll(async () => (hub = await startHub()));
beforeEach(() => hub.reset());
afterAll(() => hub.close());

it("workerd (miniflare) runs the app bundled as a Worker, with no Node compatibility flag", async () => {
  const { code } = await bundle(appDir, "worker.mjs", WORKERD);
  const mf = new Miniflare({ modules: true, script: code, compatibilityDate: "2025-09-01" });
  try {
    const response = await mf.dispatchFetch(`http://worker.test/?hub=${encodeURIComponent(hub.url)}`);
    expect(response.status).toBe(200);
    const result = (await response.json()) as AppResult;
    expect(result.runtime).toMatch(/^workerd \(Cloudflare-Workers\)/);
    await expectAppWorked(result, hub);
  } finally {
    await mf.dispose();
  }
});

it("Vercel's edge-runtime runs the app bundled as an edge function", async () => {
  const { code } = await bundle(appDir, "edge.mjs", EDGE);
  const runtime = new EdgeRuntime({ initialCode: code });
  const response = await runtime.dispatchFetch(`http://edge.test/?hub=${encodeURIComponent(hub.url)}`);
  expect(response.status).toBe(200);
  const result = (await response.json()) as AppResult;
  expect(result.runtime).toMatch(/^edge-runtime /);
  await expectAppWorked(result, hub);
  await response.waitUntil();
});

it("a Worker answers toResponse's stream itself: workerd hands the SSE bytes on, [DONE] last, an in-stream error as an error event", async () => {
  const { code } = await bundle(appDir, "worker.mjs", WORKERD);
  const mf = new Miniflare({ modules: true, script: code, compatibilityDate: "2025-09-01" });
  try {
    const url = (relay: string) => `http://worker.test/?hub=${encodeURIComponent(hub.url)}&relay=${relay}`;
    expectRelayed(
      await readRelay(await mf.dispatchFetch(url("chat"))),
      await readRelay(await mf.dispatchFetch(url("error"))),
    );
    await expect.poll(() => hub.openStreams(), { timeout: 5_000 }).toBe(0);
  } finally {
    await mf.dispose();
  }
});

it("an edge function answers toResponse's stream itself: edge-runtime hands the SSE bytes on", async () => {
  const { code } = await bundle(appDir, "edge.mjs", EDGE);
  const runtime = new EdgeRuntime({ initialCode: code });
  const url = (relay: string) => `http://edge.test/?hub=${encodeURIComponent(hub.url)}&relay=${relay}`;
  const chat = await runtime.dispatchFetch(url("chat"));
  const error = await runtime.dispatchFetch(url("error"));
  expectRelayed(await readRelay(chat), await readRelay(error));
  await Promise.all([chat.waitUntil(), error.waitUntil()]);
  await expect.poll(() => hub.openStreams(), { timeout: 5_000 }).toBe(0);
});

it("the Workers snippet of docs/runtimes.md streams the answer", async () => {
  writeFileSync(join(appDir, "snippet-worker.ts"), runtimeSnippet("workerd"));
  const { code } = await bundle(appDir, "snippet-worker.ts", { ...WORKERD, banner: { js: fetchToHub(hub.url) } });
  const mf = new Miniflare({ modules: true, script: code, compatibilityDate: "2025-09-01" });
  try {
    const response = await mf.dispatchFetch("http://worker.test/");
    expect(await response.text()).toBe(DEFAULT_TEXT);
  } finally {
    await mf.dispose();
  }
});

it("the edge snippet of docs/runtimes.md (a Next.js route handler) streams the answer", async () => {
  writeFileSync(join(appDir, "snippet-edge.ts"), runtimeSnippet("edge"));
  // What Next.js does with a route handler on the edge runtime: a fetch event calls GET.
  const entry =
    'import { GET } from "./snippet-edge.ts";\naddEventListener("fetch", (event) => event.respondWith(GET(event.request)));\n';
  writeFileSync(join(appDir, "snippet-edge-entry.ts"), entry);
  const { code } = await bundle(appDir, "snippet-edge-entry.ts", { ...EDGE, banner: { js: fetchToHub(hub.url) } });
  // Vercel's edge runtime provides process.env; the bare edge-runtime VM does not.
  const runtime = new EdgeRuntime({
    initialCode: code,
    extend: (context) => Object.assign(context, { process: { env: {} } }),
  });
  const response = await runtime.dispatchFetch("http://edge.test/api/chat");
  expect(await response.text()).toBe(DEFAULT_TEXT);
  await response.waitUntil();
});
