import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { writeFileSync } from "node:fs";
import { join } from "node:path";
import { DEFAULT_TEXT, type MockHub } from "@hfkit/mock-hub";
import { chromium, type Browser } from "playwright-core";
import { afterAll, beforeAll, beforeEach, expect, inject, it } from "vitest";
import { BROWSER, bundle } from "./bundle";
import { CHROMIUM_ARGS, findOrInstallChromium } from "./chromium";
import { chatUserAgents, expectAppWorked, startHub, type AppResult } from "./harness";
import { fetchToHub, runtimeSnippet } from "./snippets";

const appDir = inject("appDir");
// Headers a browser may send cross-origin to the inference API for a chat call: nothing of ours beyond these.
const ALLOWED_REQUEST_HEADERS = new Set(["authorization", "content-type"]);

let hub: MockHub;
let browser: Browser;
let site: { server: Server; url: string };
let snippetSite: { server: Server; url: string } | undefined;

/** The page's own origin (another port than the hub's, so every call is cross-origin and preflighted). */
async function serveApp(script: string, body = ""): Promise<{ server: Server; url: string }> {
  const html = `<!doctype html><meta charset="utf-8"><title>hfkit</title><link rel="icon" href="data:,">${body}<script type="module" src="/app.js"></script>`;
  const server = createServer((req, res) => {
    const isScript = req.url === "/app.js";
    res.writeHead(isScript || req.url === "/" ? 200 : 404, {
      "content-type": isScript ? "text/javascript" : "text/html",
    });
    res.end(isScript ? script : html);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return { server, url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/` };
}

beforeAll(async () => {
  const executablePath = findOrInstallChromium();
  hub = await startHub();
  site = await serveApp((await bundle(appDir, "browser.mjs", BROWSER)).code);
  browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
});
beforeEach(() => hub.reset());
afterAll(async () => {
  await browser?.close();
  site?.server.close();
  snippetSite?.server.close();
  await hub?.close();
});

it("headless Chromium runs the app cross-origin: preflights pass, no User-Agent or other header of ours", async () => {
  const page = await browser.newPage();
  const problems: string[] = [];
  page.on("pageerror", (error) => problems.push(error.message));
  page.on("console", (message) => void (message.type() === "error" && problems.push(message.text())));
  await page.goto(site.url);
  await page.waitForFunction(() => "runApp" in window);
  type PageResult = AppResult & { headerNames: string[] };
  const result = await page.evaluate(
    (hubUrl) => (window as unknown as { runApp(url: string): Promise<PageResult> }).runApp(hubUrl),
    hub.url,
  );

  expect(result.runtime).toMatch(/HeadlessChrome|Chrome\//);
  await expectAppWorked(result, hub);
  expect(problems).toEqual([]);
  expect(result.headerNames.filter((name) => !ALLOWED_REQUEST_HEADERS.has(name))).toEqual([]);
  for (const agent of chatUserAgents(hub)) expect(agent).toMatch(/^Mozilla\/5\.0 /);
  const preflights = hub.requests.filter((r) => r.method === "OPTIONS");
  expect(preflights.length).toBeGreaterThan(0);
  for (const preflight of preflights) {
    const requested = (preflight.headers["access-control-request-headers"] ?? "").split(",").map((h) => h.trim());
    expect(requested.filter((h) => h && !ALLOWED_REQUEST_HEADERS.has(h))).toEqual([]);
  }
  await page.close();
});

it("the browser snippet of docs/runtimes.md streams the answer into the page", async () => {
  writeFileSync(join(appDir, "snippet-browser.ts"), runtimeSnippet("browser"));
  const { code } = await bundle(appDir, "snippet-browser.ts", { ...BROWSER, banner: { js: fetchToHub(hub.url) } });
  snippetSite = await serveApp(code, '<pre id="answer"></pre>');
  const page = await browser.newPage();
  await page.goto(snippetSite.url);
  await page.waitForFunction((text) => document.querySelector("#answer")?.textContent === text, DEFAULT_TEXT, {
    timeout: 20_000,
  });
  for (const agent of chatUserAgents(hub)) expect(agent).toMatch(/^Mozilla\/5\.0 /);
  await page.close();
});
