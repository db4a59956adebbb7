import { setFlagsFromString } from "node:v8";
import { EXIT } from "./io";
import { Interrupts } from "./interrupts";
import { main } from "./main";

// fetch's HTTP parser is WebAssembly; V8 optimises it on background threads, and process.exit waits
// for that work: ~200 ms after the first request. The baseline compiler alone parses a chat answer as
// well and lets Ctrl-C exit in ~10 ms. Set before the first fetch compiles the module.
setFlagsFromString("--liftoff-only");

// Ctrl-C runs what the command registered (abort the request in flight, leave the prompt, stop the
// server), once; with nothing registered it exits 130 at once. It is never swallowed.
const interrupts = new Interrupts(() => process.exit(EXIT.interrupted));
process.on("SIGINT", () => interrupts.fire());

let stopped: Promise<void> | undefined;
const untilStopped = (): Promise<void> =>
  (stopped ??= new Promise<void>((resolve) => {
    interrupts.push(resolve);
    process.once("SIGTERM", () => resolve());
  }));

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  interrupts,
  untilStopped,
});
if (code === EXIT.interrupted) {
  // Interrupted: exit now, not when the last socket or timer lets go; what was written is flushed first.
  process.stdout.write("", () => process.stderr.write("", () => process.exit(code)));
} else {
  // No process.exit: it could cut off output still being written to a pipe.
  process.exitCode = code;
}
