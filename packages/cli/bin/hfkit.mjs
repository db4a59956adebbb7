#!/usr/bin/env node
// The `hfkit` command. Installed from the registry, dist/ is always there; in a fresh clone of the
// workspace (`pnpm exec hfkit`, `pnpm -s hfkit`), the packages are built once first.
import { execSync } from "node:child_process";
import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

const cli = fileURLToPath(new URL("../dist/cli.js", import.meta.url));
if (!existsSync(cli))
  execSync("pnpm --silent build", {
    cwd: fileURLToPath(new URL("../../..", import.meta.url)),
    stdio: ["ignore", 2, 2],
  });
await import(cli);
