/**
 * State held once per process, whichever copy of the package holds it: a process that imports the ES modules and
 * requires the CommonJS file holds two copies of the code (the dual-package hazard). Two copies of the modules here (loaded
 * twice through `vi.resetModules`) must share the backend, Responses, catalog and mapping memories, the default
 * logger, the warnings given once, and the call numbers an observer tells calls apart by.
 */
import { afterEach, expect, it, vi } from "vitest";
import type { CallEvent, ToolCallResult } from "../src/index";

const load = async () => ({
  detect: await import("../src/targets/endpoints/detect"),
  serve: await import("../src/targets/responses/serve"),
  catalog: await import("../src/features/catalog"),
  mapping: await import("../src/targets/providers/mapping"),
  logger: await import("../src/core/logger"),
  observe: await import("../src/features/observe"),
});

afterEach(async () => (await import("../src/core/logger")).setLogger(console));

it("a second copy of the modules sees the first one's memories, logger, warnings and call numbers", async () => {
  const first = await load();
  vi.resetModules();
  const second = await load();
  expect(second.detect).not.toBe(first.detect); // two copies indeed
  expect(second.detect.backendMemory).toBe(first.detect.backendMemory);
  expect(second.serve.responsesMemory).toBe(first.serve.responsesMemory);
  expect(second.catalog.catalogMemory).toBe(first.catalog.catalogMemory);
  expect(second.mapping.mappingMemory).toBe(first.mapping.mappingMemory);

  const mine = { warn: vi.fn() };
  first.logger.setLogger(mine);
  expect(second.logger.getLogger()).toBe(mine);
  first.logger.warnOnce(mine, "shared-state-test", "once");
  second.logger.warnOnce(mine, "shared-state-test", "once");
  expect(mine.warn).toHaveBeenCalledTimes(1);

  const events: CallEvent[] = [];
  const result: ToolCallResult = { id: "c1", name: "t", arguments: {}, status: "ok", content: "" };
  first.observe.toolRan((e) => events.push(e), 1, result, performance.now());
  second.observe.toolRan((e) => events.push(e), 1, result, performance.now());
  const [a, b] = events.map((e) => e.call);
  expect(b).toBe((a ?? 0) + 1);
});
