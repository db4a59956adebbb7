import type { MockHub } from "@hfkit/mock-hub";
import { EdgeRuntime } from "edge-runtime";
import { Miniflare } from "miniflare";
import { afterAll, beforeAll, beforeEach, expect, inject, it } from "vitest";
import { bundle, EDGE, WORKERD } from "./bundle";
import { expectAppWorked, startHub, type AppResult } from "./harness";

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
