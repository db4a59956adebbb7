import { execFile } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { DEFAULT_TEXT, type MockHub } from "@hfkit/mock-hub";
import { build } from "esbuild";
import { Miniflare } from "miniflare";
import { chromium } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { bundle, WORKERD } from "./bundle";
import { CHROMIUM_ARGS, findOrInstallChromium } from "./chromium";
import { run, startHub } from "./harness";
import { REPO_DIR } from "./snippets";

// The programs of examples/, each run against the mock hub the way its README line says it runs: from a
// copy of the folder whose `npm install` links the built SDK, with HF_BASE_URL naming the hub.
const exec = promisify(execFile);
const TOKEN = "hf_examples_test";
const QUESTION = [{ role: "user", content: "What is the capital of France?" }];

type RouteHandler = (req: Request) => Promise<Response>;

let hub: MockHub;
let tmp: string;
let dir: string;
let POST: RouteHandler;

beforeAll(async () => {
  hub = await startHub();
  tmp = mkdtempSync(join(tmpdir(), "hfkit-examples-"));
  dir = join(tmp, "examples");
  cpSync(join(REPO_DIR, "examples"), dir, { recursive: true, filter: (path) => !path.includes("node_modules") });
  // The same `file:` link, made absolute for the copy.
  const manifestPath = join(dir, "package.json");
  const manifest = JSON.parse(readFileSync(manifestPath, "utf8")) as { dependencies: Record<string, string> };
  for (const [name, spec] of Object.entries(manifest.dependencies)) {
    manifest.dependencies[name] = spec.replace(/^file:\.\.\//, `file:${REPO_DIR}/`);
  }
  writeFileSync(manifestPath, JSON.stringify(manifest, null, 2));
  await exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=error"], { cwd: dir });
  // What Next.js does with the route: compiled, then imported by the server, its environment set.
  const route = await build({
    entryPoints: [join(dir, "nextjs/app/api/chat/route.ts")],
    bundle: true,
    packages: "external",
    platform: "node",
    format: "esm",
    write: false,
    logLevel: "silent",
  });
  writeFileSync(join(dir, "route.mjs"), route.outputFiles[0]!.text);
  Object.assign(process.env, { HF_TOKEN: TOKEN, HF_BASE_URL: hub.url });
  try {
    ({ POST } = (await import(pathToFileURL(join(dir, "route.mjs")).href)) as { POST: RouteHandler });
  } finally {
    delete process.env.HF_TOKEN;
    delete process.env.HF_BASE_URL;
  }
}, 60_000);
afterAll(async () => {
  await hub?.close();
  if (tmp) rmSync(tmp, { recursive: true, force: true });
});

/** The `data:` payloads of a server-sent events text. */
function ssePayloads(text: string): string[] {
  return text
    .split("\n\n")
    .filter((event) => event.startsWith("data: "))
    .map((event) => event.slice("data: ".length));
}

describe("examples/", () => {
  it("node-stream.mjs streams the answer to stdout, with the question from the command line", async () => {
    const env = { HF_TOKEN: TOKEN, HF_BASE_URL: hub.url };
    expect(await run(process.execPath, ["node-stream.mjs"], dir, 30_000, env)).toBe(`${DEFAULT_TEXT}\n`);
    expect(await run(process.execPath, ["node-stream.mjs", "And of Italy?"], dir, 30_000, env)).toBe(
      `${DEFAULT_TEXT}\n`,
    );
    expect(hub.requests.at(-1)).toMatchObject({
      headers: { authorization: `Bearer ${TOKEN}` },
      body: { messages: [{ content: "And of Italy?" }] },
    });
  });

  it("nextjs route.ts: POST streams the SDK's chunks as server-sent events, then [DONE]; a bad body is a 400", async () => {
    const response = await POST(
      new Request("http://app.test/api/chat", { method: "POST", body: JSON.stringify({ messages: QUESTION }) }),
    );
    expect(response.status).toBe(200);
    expect(response.headers.get("content-type")).toBe("text/event-stream");
    const payloads = ssePayloads(await response.text());
    expect(payloads.at(-1)).toBe("[DONE]");
    const chunks = payloads
      .slice(0, -1)
      .map((data) => JSON.parse(data) as { object: string; choices: Array<{ delta: { content?: string } }> });
    expect(chunks.every((chunk) => chunk.object === "chat.completion.chunk")).toBe(true);
    expect(chunks.map((chunk) => chunk.choices[0]?.delta.content ?? "").join("")).toBe(DEFAULT_TEXT);
    expect(hub.requests.at(-1)?.headers.authorization).toBe(`Bearer ${TOKEN}`);

    const bad = await POST(new Request("http://app.test/api/chat", { method: "POST", body: "{}" }));
    expect(bad.status).toBe(400);
  });

  it("nextjs route.ts type-checks under tsc --strict (the packages' own types are checked by install.test.ts)", async () => {
    const typeRoots = realpathSync(join(REPO_DIR, "node_modules/@types"));
    const flags = [
      "--strict",
      "--noEmit",
      "--module",
      "nodenext",
      "--moduleResolution",
      "nodenext",
      "--target",
      "es2022",
      "--skipLibCheck",
      "--types",
      "node",
      "--typeRoots",
      typeRoots,
    ];
    const failure = await exec(join(REPO_DIR, "node_modules/.bin/tsc"), [...flags, "nextjs/app/api/chat/route.ts"], {
      cwd: dir,
    }).then(
      () => "",
      (error: { stdout?: string; message: string }) => error.stdout || error.message,
    );
    expect(failure).toBe("");
  });

  it("cloudflare-worker.mjs, bundled as wrangler does, streams plain text in workerd; a GET is a 405", async () => {
    const { code } = await bundle(dir, "cloudflare-worker.mjs", WORKERD);
    const mf = new Miniflare({
      modules: true,
      script: code,
      compatibilityDate: "2025-09-01",
      bindings: { HF_TOKEN: TOKEN, HF_BASE_URL: hub.url },
    });
    try {
      const response = await mf.dispatchFetch("http://worker.test/", {
        method: "POST",
        body: JSON.stringify({ prompt: "What is the capital of France?" }),
      });
      expect(response.headers.get("content-type")).toBe("text/plain; charset=utf-8");
      expect(await response.text()).toBe(DEFAULT_TEXT);
      expect((await mf.dispatchFetch("http://worker.test/")).status).toBe(405);
    } finally {
      await mf.dispose();
    }
  });

  it("browser/: the page streams the answer from the route handler into the page, in headless Chromium", async () => {
    const server = await serveApp(dir, POST);
    const browser = await chromium.launch({ executablePath: findOrInstallChromium(), args: CHROMIUM_ARGS });
    try {
      const page = await browser.newPage();
      const problems: string[] = [];
      page.on("pageerror", (error) => problems.push(error.message));
      await page.goto(server.url);
      await page.click("button");
      await page.waitForFunction((text) => document.querySelector("#answer")?.textContent === text, DEFAULT_TEXT, {
        timeout: 20_000,
      });
      expect(problems).toEqual([]);
    } finally {
      await browser.close();
      server.close();
    }
  });
});

/** The Next.js app in small: browser/'s files as static files, and POST /api/chat answered by the route handler. */
async function serveApp(examplesDir: string, handler: RouteHandler): Promise<Server & { url: string }> {
  const server = createServer((req, res) => {
    void (async () => {
      if (req.method === "POST" && req.url === "/api/chat") {
        const chunks: Buffer[] = [];
        for await (const chunk of req) chunks.push(chunk as Buffer);
        const headers = new Headers();
        for (const [name, value] of Object.entries(req.headers))
          if (typeof value === "string") headers.set(name, value);
        const response = await handler(
          new Request(`http://${req.headers.host}/api/chat`, { method: "POST", headers, body: Buffer.concat(chunks) }),
        );
        res.writeHead(response.status, Object.fromEntries(response.headers));
        const reader = response.body?.getReader();
        for (let read = await reader?.read(); read && !read.done; read = await reader?.read()) res.write(read.value);
        return void res.end();
      }
      const file = req.url === "/" ? "index.html" : req.url === "/chat.js" ? "chat.js" : undefined;
      if (!file) return void res.writeHead(404).end();
      res.writeHead(200, { "content-type": file.endsWith(".js") ? "text/javascript" : "text/html" });
      res.end(readFileSync(join(examplesDir, "browser", file)));
    })().catch((error: unknown) => res.destroy(error as Error));
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return Object.assign(server, { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` });
}
