/** The migration page cannot drift: its table of `@huggingface/inference` 4.13.30's exports against both packages, its provider pairs against the implemented table and against 4.13's. */
import { readFileSync } from "node:fs";
import * as hf from "@huggingface/inference";
import { expect, it } from "vitest";
import * as ours from "../src/index";

const page = readFileSync(new URL("../../../docs/migrating-from-huggingface-inference.md", import.meta.url), "utf8");
const table = page.slice(page.indexOf("## Every export of `@huggingface/inference` 4.13.30"));
// A row, its cells padded or not (a formatter aligns the columns).
const rows = [...table.matchAll(/^\| `([\w$]+)` +\| (.+?) *\|$/gm)].map((m) => ({
  name: m[1] as string,
  note: m[2] as string,
}));

it("lists every runtime export of 4.13.30's root, once", () => {
  expect(rows.map((r) => r.name).sort()).toEqual(Object.keys(hf).sort());
});

it("says 'not in hfkit' exactly for the names hfkit does not export, and why", () => {
  for (const { name, note } of rows) {
    const missing = note.startsWith("not in hfkit:");
    expect(name in ours, `${name}: ${note}`).toBe(!missing);
    if (!missing) expect(note, name).toMatch(/^(same|differs: )/);
    else expect(note.length, name).toBeGreaterThan(30);
  }
});

const camel = (task: string): string => task.replace(/-(\w)/g, (_, c: string) => c.toUpperCase());

it("hfkit serves every provider × task pair of 4.13.30 (chat aside: every provider's goes through the router)", async () => {
  const { PROVIDER_TASKS } = await import("../src/targets/providers/table");
  const pairs = (table: Record<string, Record<string, unknown>>) =>
    Object.entries(table)
      .filter(([provider]) => provider !== "hf-inference")
      .flatMap(([provider, tasks]) =>
        Object.keys(tasks)
          .filter((t) => t !== "conversational")
          .map((t) => `${provider} × ${t}`),
      )
      .sort();
  const theirs = pairs((hf as unknown as { PROVIDERS: Record<string, Record<string, unknown>> }).PROVIDERS);
  expect(theirs.length).toBeGreaterThan(40);
  expect(pairs(PROVIDER_TASKS as Record<string, Record<string, unknown>>)).toEqual(theirs);
});

it("the page's table of provider tasks is the implemented table", async () => {
  const { PROVIDER_TASKS } = await import("../src/targets/providers/table");
  const section = page.slice(page.search(/^\| provider +\| tasks +\|$/m), page.indexOf("LoRA adapters of the mapping"));
  const listed = Object.fromEntries(
    [...section.matchAll(/^\| ([a-z-]+) +\| (.+?) *\|$/gm)]
      .filter((m) => m[1] !== "provider" && !/^-+$/.test(m[1] as string))
      .map((m) => [m[1], [...(m[2] as string).matchAll(/`(\w+)`/g)].map((t) => t[1]).sort()]),
  );
  const implemented = Object.fromEntries(
    Object.entries(PROVIDER_TASKS).map(([p, tasks]) => [p, Object.keys(tasks).map(camel).sort()]),
  );
  expect(listed).toEqual(implemented);
});
