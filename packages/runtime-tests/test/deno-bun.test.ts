import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_TEXT, type MockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, expect, inject, it } from "vitest";
import { BIN, chatUserAgents, expectAppWorked, run, runJson, startHub } from "./harness";
import { runtimeSnippet, writeFetchToHub } from "./snippets";

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

it("the Deno snippet of docs/runtimes.md streams the answer", async () => {
  writeFileSync(join(appDir, "snippet-deno.ts"), runtimeSnippet("deno"));
  const redirect = writeFetchToHub(appDir, hub.url, "fetch-to-hub.mjs");
  const args = [
    "run",
    "--node-modules-dir=manual",
    "--allow-net=127.0.0.1",
    "--allow-env=HF_TOKEN",
    "--allow-read",
    "--preload",
    redirect,
    "snippet-deno.ts",
  ];
  expect(await run(join(BIN, "deno"), args, appDir)).toBe(DEFAULT_TEXT);
});

it("the Bun snippet of docs/runtimes.md streams the answer", async () => {
  writeFileSync(join(appDir, "snippet-bun.ts"), runtimeSnippet("bun"));
  const redirect = writeFetchToHub(appDir, hub.url, "fetch-to-hub.mjs");
  expect(await run(join(BIN, "bun"), ["--preload", redirect, "snippet-bun.ts"], appDir)).toBe(DEFAULT_TEXT);
});
