import { execFile, spawn } from "node:child_process";
import { transform } from "esbuild";
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  realpathSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { promisify } from "node:util";
import { DEFAULT_TEXT, type MockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, describe, expect, it, onTestFinished, vi } from "vitest";
import { run, startHub } from "./harness";
import { markdownBlocks, REPO_DIR, writeFetchToHub } from "./snippets";

// What the root README's Install section tells a user to do, done in an empty project: `pnpm pack:all`
// packs the published packages (six of them here), one `npm install` of the tarballs installs them (the CLI's @hfkit
// dependencies resolve from the other tarballs), and the README's samples run against the mock hub as ES
// modules, as CommonJS, and type-check under `tsc --strict` with the workspace's TypeScript.
const PACKAGES = ["ai-sdk", "inference", "mock-hub", "openai-compat", "snippets", "cli"];
const TSC = join(REPO_DIR, "node_modules/.bin/tsc");
const TS_FLAGS = [
  "--strict",
  "--noEmit",
  "--module",
  "nodenext",
  "--moduleResolution",
  "nodenext",
  "--target",
  "es2022",
];
const exec = promisify(execFile);

/** The README block whose fence says `install=<flavour>`. */
function readmeSample(flavour: string): string {
  const found = markdownBlocks("README.md").filter((block) => block.meta === `install=${flavour}`);
  if (found.length !== 1) throw new Error(`README.md has ${found.length} blocks marked install=${flavour}, expected 1`);
  return found[0]!.code;
}

let hub: MockHub;
let dir: string;
let app: string;
let cjs: string;
let redirect: string;
let tarballs: string[];
let installWarnings = "";

beforeAll(async () => {
  hub = await startHub();
  dir = mkdtempSync(join(tmpdir(), "hfkit-install-"));
  const packed = await exec(process.execPath, [
    join(REPO_DIR, "scripts/pack.mjs"),
    `--out=${join(dir, "packs")}`,
    ...PACKAGES,
  ]);
  tarballs = packed.stdout.split("\n").filter((line) => line.startsWith("/") && line.endsWith(".tgz"));
  app = join(dir, "app");
  cjs = join(app, "cjs");
  mkdirSync(cjs, { recursive: true });
  writeFileSync(
    join(app, "package.json"),
    JSON.stringify({ name: "my-app", version: "1.0.0", private: true, type: "module" }, null, 2),
  );
  // What `npm init -y` writes, "type": "commonjs" included.
  writeFileSync(
    join(cjs, "package.json"),
    JSON.stringify({ name: "my-cjs-app", version: "1.0.0", main: "index.js", type: "commonjs" }, null, 2),
  );
  installWarnings = (
    await exec("npm", ["install", "--no-audit", "--no-fund", "--prefer-offline", "--loglevel=warn", ...tarballs], {
      cwd: app,
    })
  ).stderr;
  redirect = writeFetchToHub(app, hub.url, "fetch-to-hub.cjs");
}, 120_000);
afterAll(async () => {
  await hub?.close();
  if (dir) rmSync(dir, { recursive: true, force: true });
});

describe("the packed packages in an empty project", () => {
  it("pnpm pack:all packs each of the six, and one npm install takes them all (the CLI's deps from the other tarballs)", () => {
    expect(tarballs.map((tarball) => tarball.split("/").pop())).toEqual(
      PACKAGES.map((name) => `hfkit-${name}-0.1.0.tgz`),
    );
    const manifest = JSON.parse(readFileSync(join(app, "package.json"), "utf8")) as {
      dependencies: Record<string, string>;
    };
    expect(Object.keys(manifest.dependencies).sort()).toEqual(PACKAGES.map((name) => `@hfkit/${name}`).sort());
    expect(readdirSync(join(app, "node_modules/@hfkit")).sort()).toEqual([...PACKAGES].sort());
    for (const name of PACKAGES)
      expect(readdirSync(join(app, "node_modules/@hfkit", name))).toEqual(
        expect.arrayContaining(["LICENSE", "README.md"]),
      );
  });

  it("installing them pulls no AI SDK package (and no engine warning) into an app that never uses the AI SDK", () => {
    expect(existsSync(join(app, "node_modules/@ai-sdk"))).toBe(false);
    expect(existsSync(join(app, "node_modules/ai"))).toBe(false);
    expect(installWarnings).not.toMatch(/EBADENGINE|engine/i);
  });

  it('ESM: the README\'s Usage sample runs as an .mjs file in a "type": "module" project', async () => {
    writeFileSync(join(app, "usage.mjs"), readmeSample("esm"));
    const stdout = await run(process.execPath, ["--import", redirect, "usage.mjs"], app, 30_000, {
      HF_TOKEN: "hf_install_test",
    });
    expect(stdout).toBe(DEFAULT_TEXT);
    const resolved = await run(
      process.execPath,
      ["--input-type=module", "-e", 'console.log(import.meta.resolve("@hfkit/inference"))'],
      app,
    );
    expect(resolved.trim()).toMatch(/\/app\/node_modules\/@hfkit\/inference\/dist\/index\.js$/);
  });

  it("CommonJS: the README's require sample runs in an `npm init -y` project", async () => {
    writeFileSync(join(cjs, "index.js"), readmeSample("cjs"));
    const stdout = await run(process.execPath, ["--require", redirect, "index.js"], cjs, 30_000, {
      HF_TOKEN: "hf_install_test",
    });
    expect(stdout).toBe(DEFAULT_TEXT);
  });

  it("the other packages load from their tarballs, with import and with require", async () => {
    const names = ["@hfkit/mock-hub", "@hfkit/openai-compat", "@hfkit/snippets"];
    const esm = `for (const name of ${JSON.stringify(names)}) console.log(name, Object.keys(await import(name)).length > 0);`;
    const cjsCode = `for (const name of ${JSON.stringify(names)}) console.log(name, Object.keys(require(name)).length > 0);`;
    const expected = names.map((name) => `${name} true`).join("\n") + "\n";
    expect(await run(process.execPath, ["--input-type=module", "-e", esm], app)).toBe(expected);
    expect(await run(process.execPath, ["-e", cjsCode], cjs)).toBe(expected);
  });

  it("TypeScript strict: the README samples type-check (ESM; CommonJS wrapped in a function), and top-level await in CommonJS is TS1309", async () => {
    const typeRoots = realpathSync(join(REPO_DIR, "node_modules/@types"));
    const flags = [...TS_FLAGS, "--types", "node", "--typeRoots", typeRoots];
    writeFileSync(join(app, "usage.ts"), readmeSample("esm"));
    const wrapped = readmeSample("cjs").replace(
      'const { InferenceClient } = require("@hfkit/inference");',
      'import { InferenceClient } from "@hfkit/inference";',
    );
    writeFileSync(join(cjs, "main.ts"), wrapped);
    writeFileSync(join(cjs, "top-level.ts"), readmeSample("esm"));
    // One compiler run (each file's module kind comes from its package.json): the only errors are top-level.ts's TS1309s.
    const output = await exec(TSC, [...flags, "usage.ts", "cjs/main.ts", "cjs/top-level.ts"], { cwd: app }).then(
      ({ stdout }) => stdout,
      (error: { stdout: string }) => error.stdout,
    );
    const errors = output.split("\n").filter((line) => /error TS\d+/.test(line));
    expect(errors.length, output).toBeGreaterThan(0);
    for (const error of errors) {
      expect(error).toMatch(
        /^cjs\/top-level\.ts\(\d+,\d+\): error TS1309: The current file is a CommonJS module and cannot use 'await' at the top level\.$/,
      );
    }
  });

  it("the CLI: `hfkit --version`, and `hfkit chat` streams from the mock hub", async () => {
    const bin = join(app, "node_modules/.bin/hfkit");
    expect((await run(bin, ["--version"], app)).trim()).toMatch(/^(hfkit )?0\.1\.0$/);
    const answer = await run(
      bin,
      ["chat", "--base-url", hub.url, "-m", "hfkit/tgi-3.2", "What is the capital of France?"],
      app,
      30_000,
    );
    expect(answer.trim()).toBe(DEFAULT_TEXT);
  });

  it("a newcomer's first hour: `hfkit mock-hub` started, its export lines taken, every getting-started sample runs unchanged, offline, with no token", async () => {
    const hubProcess = spawn(join(app, "node_modules/.bin/hfkit"), ["mock-hub", "--quiet"], {
      cwd: app,
      stdio: ["ignore", "pipe", "pipe"],
    });
    onTestFinished(() => void hubProcess.kill("SIGKILL"));
    let printed = "";
    hubProcess.stdout.setEncoding("utf8").on("data", (text: string) => (printed += text));
    await vi.waitFor(() => expect(printed).toMatch(/^export HF_INFERENCE_ENDPOINT=.*$/m), {
      timeout: 20_000,
      interval: 50,
    });
    const exported = Object.fromEntries(
      [...printed.matchAll(/^export (HF_[A-Z_]+)=(\S+)$/gm)].map((m) => [m[1]!, m[2]!.replace(/^'|'$/g, "")]),
    );
    expect(Object.keys(exported).sort()).toEqual(["HF_ENDPOINT", "HF_INFERENCE_ENDPOINT"]);
    const samples = markdownBlocks("docs/getting-started.md").filter(
      (block) => block.lang === "ts" && !/\bfragment\b/.test(block.meta),
    );
    expect(samples.length).toBeGreaterThan(2);
    for (const [i, sample] of samples.entries()) {
      const { code } = await transform(sample.code, { loader: "ts", format: "esm", target: "node20" });
      writeFileSync(join(app, `getting-started-${i}.mjs`), code);
      const expected = [...sample.code.matchAll(/\/\/ prints: (.*)$/gm)].map((m) => m[1]!.trim()).join("\n");
      const stdout = await run(process.execPath, [`getting-started-${i}.mjs`], app, 30_000, {
        ...exported,
        HF_TOKEN: "",
      });
      expect(stdout.trim(), `sample at line ${sample.line}`).toBe(expected);
    }
  });
});
