import { readFileSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/** The repository's root, where README.md is. */
export const REPO_DIR = resolve(import.meta.dirname, "../../..");
export const DOCS_DIR = join(REPO_DIR, "docs");

export interface DocBlock {
  lang: string;
  /** What follows the language on the fence line, e.g. `runtime=deno`. */
  meta: string;
  code: string;
  /** 1-based line of the opening fence. */
  line: number;
}

/** The fenced code blocks of a Markdown file under docs/. */
export function docBlocks(file: string): DocBlock[] {
  return markdownBlocks(join("docs", file));
}

/** The fenced code blocks of a Markdown file, by its path from the repository's root. */
export function markdownBlocks(path: string): DocBlock[] {
  const text = readFileSync(join(REPO_DIR, path), "utf8");
  const blocks: DocBlock[] = [];
  for (const match of text.matchAll(/^```(\w+)([^\n]*)\n([\s\S]*?)^```$/gm)) {
    const line = text.slice(0, match.index).split("\n").length;
    blocks.push({ lang: match[1] ?? "", meta: (match[2] ?? "").trim(), code: match[3] ?? "", line });
  }
  return blocks;
}

/** The one block of docs/runtimes.md written for `runtime` (fence meta `runtime=<name>`). */
export function runtimeSnippet(runtime: string): string {
  const found = docBlocks("runtimes.md").filter((block) => block.meta === `runtime=${runtime}`);
  if (found.length !== 1)
    throw new Error(`docs/runtimes.md has ${found.length} blocks for runtime=${runtime}, expected 1`);
  return found[0]!.code;
}

/**
 * A script that sends a sample's requests for the Hugging Face hosts (the router, the Hub's API, endpoints) to the mock hub, and refuses any
 * other non-loopback host (tests have no network). Runs as a preload, or as a bundle's banner.
 */
export function fetchToHub(hubUrl: string): string {
  return `(() => {
  const hub = ${JSON.stringify(hubUrl)};
  const loopback = new Set(["127.0.0.1", "localhost", "[::1]"]);
  const target = (url) => {
    const u = new URL(url);
    if (u.hostname === "router.huggingface.co" || u.hostname === "api-inference.huggingface.co" || u.hostname === "huggingface.co") return hub + u.pathname + u.search;
    const endpoint = /^([^.]+)\\..*endpoints\\.huggingface\\.cloud$/.exec(u.hostname);
    if (endpoint) return hub + "/endpoints/" + endpoint[1] + (u.pathname === "/" ? "" : u.pathname);
    if (loopback.has(u.hostname)) return url;
    throw new TypeError("a docs sample tried to reach " + u.host + ": tests have no network");
  };
  const original = globalThis.fetch;
  globalThis.fetch = (input, init) => {
    try {
      if (typeof input === "string" || input instanceof URL) return original(target(String(input)), init);
      return original(new Request(target(input.url), input), init);
    } catch (error) {
      return Promise.reject(error);
    }
  };
})();
`;
}

/** Writes the fetch redirection beside an app, and answers its absolute path. */
export function writeFetchToHub(dir: string, hubUrl: string, name = "fetch-to-hub.js"): string {
  const file = join(dir, name);
  writeFileSync(file, fetchToHub(hubUrl));
  return file;
}
