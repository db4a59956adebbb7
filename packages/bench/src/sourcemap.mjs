// hfkit built from its sources with a source map, so profiles name source files and lines
// (dist/ is one file without a map).
import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import * as esbuild from "esbuild";

const HFKIT_SOURCE = fileURLToPath(new URL("../../inference/src/index.ts", import.meta.url));
const B64 = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";

function decodeVlq(segment) {
  const fields = [];
  let value = 0;
  let shift = 0;
  for (const ch of segment) {
    const digit = B64.indexOf(ch);
    value += (digit & 31) << shift;
    if (digit & 32) shift += 5;
    else {
      fields.push(value & 1 ? -(value >>> 1) : value >>> 1);
      value = shift = 0;
    }
  }
  return fields;
}

/** For each generated line, the source index and line of its first mapped segment. */
function lineTable(mappings) {
  const lines = [];
  let source = 0;
  let line = 0;
  for (const group of mappings.split(";")) {
    let first;
    for (const segment of group.split(",")) {
      const f = segment ? decodeVlq(segment) : [];
      if (f.length < 4) continue;
      source += f[1];
      line += f[2];
      first ??= { source, line };
    }
    lines.push(first);
  }
  return lines;
}

/** Builds hfkit from src/ into a temporary folder; answers its URL and a generated-line mapper. */
export async function buildHfkitWithMap() {
  const dir = mkdtempSync(join(tmpdir(), "hfkit-bench-"));
  const file = join(dir, "hfkit.mjs");
  const result = await esbuild.build({
    entryPoints: [HFKIT_SOURCE],
    bundle: true,
    format: "esm",
    platform: "neutral",
    target: "es2022",
    sourcemap: "external",
    outfile: file,
    write: false,
    logLevel: "silent",
  });
  for (const out of result.outputFiles) writeFileSync(out.path, out.contents);
  const map = JSON.parse(result.outputFiles.find((o) => o.path.endsWith(".map")).text);
  const lines = lineTable(map.mappings);
  const sources = map.sources.map((s) =>
    s.replace(/^.*packages\/inference\//, "").replace(/^.*node_modules\/(?:\.pnpm\/[^/]+\/node_modules\/)?/, ""),
  );
  const url = pathToFileURL(file).href;
  /** "src/x.ts:12" for a 0-based generated line of the built file. */
  const sourceOf = (line) => {
    const at = lines[line];
    return at ? `${sources[at.source]}:${at.line + 1}` : undefined;
  };
  return { url, sourceOf };
}
