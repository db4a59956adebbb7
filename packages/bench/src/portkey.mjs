// The Portkey AI gateway in a child process, as its bin starts it, and its fallback config.
import { fork } from "node:child_process";
import { once } from "node:events";
import { fileURLToPath } from "node:url";

const BIN = fileURLToPath(import.meta.resolve("@portkey-ai/gateway/build/start-server.js"));
const PRELOAD = fileURLToPath(new URL("portkey-preload.mjs", import.meta.url));

/** Starts `start-server.js --port=0 --headless`; answers its loopback URL and `close()`. */
export async function startGateway() {
  const child = fork(BIN, ["--port=0", "--headless"], {
    execArgv: ["--import", PRELOAD],
    stdio: ["ignore", "ignore", "pipe", "ipc"],
  });
  let log = "";
  child.stderr.on("data", (data) => (log = (log + data).slice(-2000)));
  const exited = once(child, "exit");
  const port = await Promise.race([
    once(child, "message").then(([message]) => message.port),
    exited.then(([code]) =>
      Promise.reject(new Error(`the Portkey gateway exited (${code}) before listening:\n${log}`)),
    ),
  ]);
  return {
    url: `http://127.0.0.1:${port}`,
    async close() {
      child.kill();
      await exited;
    },
  };
}

/** Portkey's 5xx for a connection it could not make is 500; 408 is its own `request_timeout`. */
export const ON_STATUS_CODES = [408, 429, 500, 502, 503, 504];

/**
 * `x-portkey-config`: the down server first, the mock hub's router second, both OpenAI-compatible
 * (`custom_host`); no `retry` block, so each target is tried once, as hfkit's failover does.
 */
export function fallbackConfig({ downUrl, routerUrl, model, fallbackModel, timeoutMs }) {
  const target = (host, m) => ({
    provider: "openai",
    api_key: "hf_bench",
    custom_host: `${host}/v1`,
    override_params: { model: m },
  });
  return {
    strategy: { mode: "fallback", on_status_codes: ON_STATUS_CODES },
    request_timeout: timeoutMs,
    targets: [target(downUrl, model), target(routerUrl, fallbackModel)],
  };
}
