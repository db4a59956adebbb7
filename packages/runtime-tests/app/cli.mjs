// Node (ESM), Deno and Bun: `<runtime> cli.mjs <hub url>` prints the app's result as one JSON line.
import * as sdk from "@hfkit/inference";
import { runApp, runtimeName } from "./scenarios.mjs";

const hubUrl = globalThis.Deno ? globalThis.Deno.args[0] : process.argv[2];
const result = await runApp(sdk, hubUrl);
const resolved = typeof import.meta.resolve === "function" ? import.meta.resolve("@hfkit/inference") : undefined;
console.log(JSON.stringify({ runtime: runtimeName(), resolved, ...result }));
