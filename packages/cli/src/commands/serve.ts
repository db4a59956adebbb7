import type { AddressInfo } from "node:net";
import { type ModelConfig, startMockHub } from "@hfkit/mock-hub";
import { createProxy } from "@hfkit/openai-compat";
import { parseArgs } from "node:util";
import { numberFlag, withNegatives } from "../args";
import { type Io, UsageError } from "../io";
import { announce, hostFlag } from "../listen";
import { envLines, FAULTS, KINDS, parseFaultSpec, parseModelSpec } from "./mockHubSpec";

export const PROXY_HELP = `hfkit proxy --target URL [--port N] [--host H] [--provider P[,P...]] [--router-url U] [--log FORMAT] [--metrics] [--health-redis URL]

An OpenAI-compatible proxy (POST /v1/chat/completions, GET /v1/models) in front of an hf-inference-style
base URL or the HF router. Prints its URL on stdout; runs until Ctrl-C.

  --provider P[,P...]  the router's provider for requests that name none, or providers tried in order
                       before the first token (a failed one moves the request to the next)
  --router-url U       the HF router (default https://router.huggingface.co; a mock hub's URL offline)
  --log FORMAT         one line per request on stderr: text, json (one object a line) or off (default);
                       method, route, model, provider, status, timings, tokens, error class; never a
                       token, a prompt or an answer
  --metrics            serves Prometheus metrics at GET /metrics (requests, durations, time to first
                       chunk, tokens)
  --health-redis URL   keeps each target's health (breakers, observed latencies) in Redis at URL
                       (redis:// or rediss://), shared by every proxy given the same URL; needs the npm
                       package ioredis. Redis down: each proxy uses its own memory and says so once.
                       GET /health/targets answers the health to loopback clients.
  --host H   where to listen: 127.0.0.1 (default), ::1, or 0.0.0.0 / :: for every interface. Off
             loopback anyone on the network can use it, and callers' tokens cross the network in clear
             text: a warning says so.`;

export const MOCK_HUB_HELP = `hfkit mock-hub [--port N] [--host H] [--strict] [--quiet] [--model NAME=KIND[:loading=S]]... [--fault TYPE[:KEY=N,...][@[MODEL][:PROVIDER]]]...

Starts the local emulator of the Hugging Face backends (the router, hf-inference, the providers and the
Hub's model API, all on one URL) and prints on stdout its URL, then the lines that point code at it:
export HF_ENDPOINT=URL and export HF_INFERENCE_ENDPOINT=URL (and HF_TOKEN with --strict). Runs until
Ctrl-C, writing one line per request on stderr. Any model id is a TGI 3.2 model by default; the predefined
ones (hfkit/tgi-2.0, hfkit/vllm, ...) are in the @hfkit/mock-hub README.

  --strict                        refuse what production refuses: a request without a token (401) and a
                                  model the hub does not serve (the router's 400, hf-inference's 404)
  --quiet                         no line per request on stderr

  --host H                        where to listen: 127.0.0.1 (default), ::1, or 0.0.0.0 / :: for every
                                  interface; it has no authentication: off loopback, a warning says so
  --model NAME=KIND[:loading=S]   adds the model NAME, served as KIND: ${KINDS};
                                  loading=S: it is loading (503, estimated_time S) for S seconds from the start
  --fault TYPE[:KEY=N,...][@[MODEL][:PROVIDER]]
                                  scripts a fault for MODEL (every model without @MODEL), one of:
                                  ${FAULTS}; keys are the fault's fields (stall:afterChunks=2,
                                  slow:delayMs=500, serverError:status=502, loading:estimatedTime=5);
                                  times=N applies it to the first N requests only, durationMs=MS for MS
                                  ms from the start (whichever ends first), then it is up again;
                                  @MODEL:PROVIDER (or @:PROVIDER) scripts it for one provider of the router
                                  only, to test failover and routing (refused: the connection closes with
                                  no answer; modelNotServed, providerNotEnabled, toolsUnsupported: the
                                  router's 400s; stall:afterChunks=0: a 200 whose first event never comes;
                                  rateLimit:retryAfter=S: a 429 with Retry-After S, by default with
                                  durationMs the seconds left; latency:delayMs=MS, or
                                  latency:p50Ms=A,p99Ms=B[,seed=N] drawn log-normal and seeded: a wait
                                  before a stream's first event, or before a whole answer)

  e.g. hfkit mock-hub --model acme/slow=tgi-3.2:loading=10 --fault stall:afterChunks=3@acme/stuck
       hfkit mock-hub --fault serverError:status=503@hfkit/router-multi:together --fault refused@:novita
       hfkit mock-hub --fault stall:afterChunks=0,times=100@hfkit/router-multi:together \\
         --fault latency:p50Ms=200,p99Ms=2000,seed=7@:novita --fault rateLimit:durationMs=30000@:hf-inference`;

const PORT = { min: 0, max: 65535, integer: true };
const PROXY_RISK = "anyone there can use it, and callers' tokens cross the network in clear text";
const HUB_RISK = "the mock hub has no authentication";

/** `hfkit proxy`: runs until Ctrl-C / SIGTERM, then shuts down cleanly. */
export async function proxy(argv: string[], io: Io): Promise<void> {
  const options = {
    target: { type: "string" },
    port: { type: "string" },
    host: { type: "string" },
    provider: { type: "string" },
    "router-url": { type: "string" },
    log: { type: "string" },
    metrics: { type: "boolean" },
    "health-redis": { type: "string" },
  } as const;
  const { values } = parseArgs({ args: withNegatives(argv, options), options });
  if (!values.target) throw new UsageError("--target URL is required");
  const host = hostFlag(values.host);
  const providers = values.provider?.split(",").map((p) => p.trim());
  if (providers?.some((p) => p === ""))
    throw new UsageError(`--provider ${values.provider}: a provider's name is empty`);
  const provider = providers === undefined ? undefined : providers.length === 1 ? providers[0] : providers;
  const routerUrl = values["router-url"];
  if (routerUrl !== undefined && !/^https?:\/\/[^/]/i.test(routerUrl))
    throw new UsageError(`--router-url ${routerUrl}: an http:// or https:// URL`);
  const log = logFlag(values.log);
  const logTo = (line: string): void => void io.stderr.write(`${line}\n`);
  const redis = values["health-redis"];
  // Never echoed: a Redis URL may carry a password.
  if (redis !== undefined && !/^rediss?:\/\/./i.test(redis))
    throw new UsageError("--health-redis: a redis:// or rediss:// URL");
  const shared = redis === undefined ? {} : { health: { redis }, logger: { warn: (line: string) => logTo(line) } };
  const server = createProxy({
    target: values.target,
    provider,
    routerUrl,
    log,
    logTo,
    metrics: values.metrics ?? false,
    ...shared,
  });
  // listen's error (a port in use) rejects here, so it is reported as one line.
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    server.listen(numberFlag("port", values.port, PORT) ?? 0, host, () => {
      server.off("error", reject);
      resolve();
    });
  });
  const { port, address } = server.address() as AddressInfo;
  announce(io, address, port, PROXY_RISK);
  await io.untilStopped();
  await server.shutdown();
}

const LOG_FORMATS = ["text", "json", "off"] as const;

/** `--log`: off unless given (stderr keeps to warnings and errors), text or json. */
function logFlag(value: string | undefined): (typeof LOG_FORMATS)[number] {
  if (value === undefined) return "off";
  const format = LOG_FORMATS.find((f) => f === value);
  if (!format) throw new UsageError(`--log must be text, json or off (got "${value}")`);
  return format;
}

/** `hfkit mock-hub`: runs until Ctrl-C / SIGTERM. */
export async function mockHub(argv: string[], io: Io): Promise<void> {
  const options = {
    port: { type: "string" },
    host: { type: "string" },
    model: { type: "string", multiple: true },
    fault: { type: "string", multiple: true },
    strict: { type: "boolean" },
    quiet: { type: "boolean" },
  } as const;
  const { values } = parseArgs({ args: withNegatives(argv, options), options });
  const host = hostFlag(values.host);
  const models: Record<string, ModelConfig> = {};
  for (const spec of values.model ?? []) {
    const { id, config } = parseModelSpec(spec);
    models[id] = config;
  }
  const faults = (values.fault ?? []).map((spec) => parseFaultSpec(spec, models));
  const strict = values.strict ?? false;
  const log = values.quiet ? undefined : (line: string): void => void io.stderr.write(`${line}\n`);
  const hub = await startMockHub({ port: numberFlag("port", values.port, PORT), host, models, strict, log });
  for (const { fault, model, provider } of faults) hub.inject(fault, { model, provider });
  announce(io, hub.host, hub.port, HUB_RISK);
  io.stdout.write(envLines(hub.url, strict, io.stdout.isTTY === true));
  await io.untilStopped();
  await hub.close();
}
