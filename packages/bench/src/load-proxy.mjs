// `node load-proxy.mjs <module> <target>`: `startProxy({ target })` from another build of
// @hfkit/openai-compat (e.g. one before a change, for `pnpm bench:load --compare`); prints its URL, stops on SIGTERM.
import { pathToFileURL } from "node:url";

const [modulePath, target] = process.argv.slice(2);
const { startProxy } = await import(pathToFileURL(modulePath).href);
const proxy = await startProxy({ target });
process.stdout.write(`${proxy.url}\n`);
process.once("SIGTERM", () => void proxy.close().then(() => process.exit(0)));
