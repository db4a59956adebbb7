/**
 * The list of tasks is written once (`src/tasks/all.ts`: each task module, loaded on first use by `tasks/lazy.ts`);
 * every other list is checked against it here, so that a task added there and missed elsewhere fails:
 * the client's methods, the lazy module, the package's exports, and the provider table's task names.
 */
import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TASKS } from "../src/api/clientTasks";
import * as index from "../src/index";
import * as all from "../src/tasks/all";
import * as lazy from "../src/tasks/lazy";
import { PROVIDER_TASKS } from "../src/targets/providers/table";

/** What all.ts holds besides the tasks the client has as methods of their own name. */
const NOT_METHODS = [
  "responses",
  "responsesStream",
  "textGenerationOnProvider",
  "textGeneration",
  "textGenerationStream",
  "conversational",
];
const TASK_NAMES = Object.keys(all)
  .filter((name) => !NOT_METHODS.includes(name))
  .sort();
/** `text-to-image` → `textToImage`. */
const functionOf = (pipeline: string) => pipeline.replace(/-(\w)/g, (_m, c: string) => c.toUpperCase());

describe("the one list of tasks", () => {
  it("holds the tasks (a sanity floor: 30 and more)", () => {
    expect(TASK_NAMES.length).toBeGreaterThanOrEqual(30);
    expect(TASK_NAMES).toContain("textToImage");
  });

  it("the client's task methods are exactly its tasks", () => {
    expect(Object.keys(TASKS).sort()).toEqual(TASK_NAMES);
    const proto = index.InferenceClient.prototype as unknown as Record<string, unknown>;
    expect(TASK_NAMES.filter((name) => typeof proto[name] !== "function")).toEqual([]);
  });

  it("each function the lazy module exports carries its task's own doc comment (the API docs show it)", () => {
    const source = (file: string) => readFileSync(new URL(`../src/tasks/${file}.ts`, import.meta.url), "utf8");
    const lazyText = source("lazy");
    const loaders = [
      ...lazyText.matchAll(/(\/\*\*(?:(?!\*\/)[\s\S])*?\*\/)\nexport const (\w+) =[^;]*?import\("\.\/(\w+)"\)/g),
    ];
    expect(loaders.map((m) => m[2]).sort()).toEqual(Object.keys(lazy).sort());
    for (const [, doc, name, file] of loaders) {
      const own = new RegExp(
        `(\\/\\*\\*(?:(?!\\*\\/)[\\s\\S])*?\\*\\/)\\s*\\nexport (?:async )?(?:function\\*? ?|const )${name}\\b`,
      ).exec(source(file!));
      expect(doc, name).toBe(own?.[1]);
    }
  });

  it("the lazy module (what the package exports) has every function of all.ts", () => {
    expect(Object.keys(lazy).sort()).toEqual(Object.keys(all).sort());
  });

  it("the package exports each task and the Responses API", () => {
    const exported = index as unknown as Record<string, unknown>;
    expect(
      [...TASK_NAMES, "responses", "responsesStream"].filter((name) => typeof exported[name] !== "function"),
    ).toEqual([]);
  });

  it("each task the provider table names is a function of the package", () => {
    const exported = index as unknown as Record<string, unknown>;
    const named = [...new Set(Object.values(PROVIDER_TASKS).flatMap((tasks) => Object.keys(tasks)))];
    expect(named.length).toBeGreaterThan(10);
    expect(named.filter((task) => typeof exported[functionOf(task)] !== "function")).toEqual([]);
  });
});
