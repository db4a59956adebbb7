import type { MockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, describe, expect, inject, it } from "vitest";
import { chatUserAgents, expectAppWorked, runJson, startHub } from "./harness";

const appDir = inject("appDir");
let hub: MockHub;
beforeAll(async () => (hub = await startHub()));
beforeEach(() => hub.reset());
afterAll(() => hub.close());

describe("Node", () => {
  it("import: the exports map gives the ESM build, and the app runs on it", async () => {
    const result = await runJson(process.execPath, ["cli.mjs", hub.url], appDir);
    expect(result.resolved).toMatch(/\/node_modules\/@hfkit\/inference\/dist\/index\.js$/);
    await expectAppWorked(result, hub);
    expect(chatUserAgents(hub)).toEqual(new Set([expect.stringMatching(/^hfkit\/\d+\.\d+\.\d+/)]));
  });

  it("require: the exports map gives the CommonJS build, and its errors are instances of the ESM classes", async () => {
    const result = await runJson(process.execPath, ["cli.cjs", hub.url], appDir);
    expect(result.resolved).toMatch(/\/node_modules\/@hfkit\/inference\/dist\/index\.cjs$/);
    expect(result.crossCopyInstanceof).toBe(true);
    await expectAppWorked(result, hub);
  });
});
