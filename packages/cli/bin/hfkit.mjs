#!/usr/bin/env node
// `pnpm hfkit …` from the workspace root: builds the packages once if the CLI is not built yet.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
if (!existsSync(cli)) execSync("pnpm --silent build", { cwd: fileURLToPath(new URL("../../..", import.meta.url)), stdio: ["ignore", 2, 2] });
await import(cli);
