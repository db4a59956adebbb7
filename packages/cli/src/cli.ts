import { main } from "./main";

const stop = new Promise<void>((resolve) => {
  process.once("SIGINT", resolve);
  process.once("SIGTERM", resolve);
});

const code = await main(process.argv.slice(2), {
  stdout: process.stdout,
  stderr: process.stderr,
  stdin: process.stdin,
  env: process.env,
  untilStopped: () => stop,
});
// No process.exit: it could cut off output still being written to a pipe.
process.exitCode = code;
