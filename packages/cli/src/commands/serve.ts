import { parseArgs } from "node:util";
import { startMockHub } from "@hfkit/mock-hub";
import { startProxy } from "@hfkit/openai-compat";
import { type Io, positiveNumber, UsageError } from "../io";

export const PROXY_HELP = `hfkit proxy --target URL [--port N] [--host H]

An OpenAI-compatible proxy (POST /v1/chat/completions, GET /v1/models) in front of an hf-inference-style
base URL. Binds 127.0.0.1 unless --host says otherwise. Prints its URL on stdout.`;

export const MOCK_HUB_HELP = `hfkit mock-hub [--port N]

Starts the local emulator of the Hugging Face backends on 127.0.0.1 and prints its URL on stdout. Any model
id is a TGI model by default; see the @hfkit/mock-hub README for the predefined behaviours.`;

/** `hfkit proxy`: runs until SIGINT / SIGTERM, then shuts down cleanly. */
export async function proxy(argv: string[], io: Io): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { target: { type: "string" }, port: { type: "string" }, host: { type: "string" } } });
  if (!values.target) throw new UsageError("--target URL is required");
  const running = await startProxy({ target: values.target, port: positiveNumber("port", values.port, true), host: values.host });
  io.stdout.write(`${running.url}\n`);
  await io.untilStopped();
  await running.close();
}

/** `hfkit mock-hub`: runs until SIGINT / SIGTERM. */
export async function mockHub(argv: string[], io: Io): Promise<void> {
  const { values } = parseArgs({ args: argv, options: { port: { type: "string" } } });
  const hub = await startMockHub({ port: positiveNumber("port", values.port, true) });
  io.stdout.write(`${hub.url}\n`);
  await io.untilStopped();
  await hub.close();
}
