import { join } from "node:path";
import type { MockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, expect, inject, it } from "vitest";
import { BIN, chatUserAgents, expectAppWorked, runJson, startHub } from "./harness";

const appDir = inject("appDir");
let hub: MockHub;
beforeAll(async () => (hub = await startHub()));
beforeEach(() => hub.reset());
afterAll(() => hub.close());

it("Deno runs the app on the package from node_modules", async () => {
  const args = ["run", "--node-modules-dir=manual", "--allow-net=127.0.0.1", "--allow-read", "cli.mjs", hub.url];
  const result = await runJson(join(BIN, "deno"), args, appDir);
  expect(result.runtime).toMatch(/^deno 2\./);
  expect(result.resolved).toMatch(/\/node_modules\/@hfkit\/inference\/dist\/index\.js$/);
  await expectAppWorked(result, hub);
  expect(chatUserAgents(hub)).toEqual(new Set([expect.stringMatching(/^hfkit\//)]));
});

it("Bun runs the app on the package from node_modules", async () => {
  const result = await runJson(join(BIN, "bun"), ["cli.mjs", hub.url], appDir);
  expect(result.runtime).toMatch(/^bun 1\./);
  await expectAppWorked(result, hub);
  expect(chatUserAgents(hub)).toEqual(new Set([expect.stringMatching(/^hfkit\//)]));
});
