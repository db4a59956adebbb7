/** The migration page's table of `@huggingface/inference` 4.13.30's exports cannot drift from the two packages. */
import { readFileSync } from "node:fs";
import * as hf from "@huggingface/inference";
import { expect, it } from "vitest";
import * as ours from "../src/index";

const page = readFileSync(new URL("../../../docs/migrating-from-huggingface-inference.md", import.meta.url), "utf8");
const table = page.slice(page.indexOf("## Every export of `@huggingface/inference` 4.13.30"));
const rows = [...table.matchAll(/^\| `([\w$]+)` \| (.+) \|$/gm)].map((m) => ({ name: m[1] as string, note: m[2] as string }));

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
