import { type Fault, faultProblem, type FaultType, type ModelConfig, PREDEFINED_MODELS } from "@hfkit/mock-hub";
import { UsageError } from "../io";

/** `--model NAME=KIND[:loading=SECONDS]` → a model of the hub. */
export function parseModelSpec(spec: string): { id: string; config: ModelConfig } {
  const [id = "", rest] = splitOnce(spec, "=");
  const [kind = "", ...options] = (rest ?? "").split(":");
  if (!id || !kind) throw new UsageError(`--model takes NAME=KIND[:loading=SECONDS] (got "${spec}")`);
  const faults: Fault[] = [];
  for (const option of options) {
    const [key, value] = splitOnce(option, "=");
    if (key !== "loading") throw new UsageError(`--model ${id}: unknown option "${key}" (only loading=SECONDS)`);
    const seconds = Number(value);
    if (!value || !Number.isFinite(seconds) || seconds <= 0) {
      throw new UsageError(`--model ${id}: loading must be a number of seconds > 0 (got "${value ?? ""}")`);
    }
    faults.push({ type: "loading", estimatedTime: seconds, durationMs: seconds * 1000 });
  }
  return { id, config: { ...kindConfig(kind, id), ...(faults.length > 0 ? { faults } : {}) } };
}

export const KINDS =
  "tgi-2.0, tgi-2.1, tgi-2.2, tgi-2.4.0, tgi-2.4.1, tgi-3.1, tgi-3.2 (or any tgi-X.Y.Z), transformers, vllm, sglang, llamacpp";
const ALIASES: Record<string, string> = { transformers: "transformers-chat", tgi: "tgi-3.2" };

/** A KIND is a predefined model's name without `hfkit/` (`tgi-2.0`, `vllm`, …), or `tgi-X.Y.Z`. */
function kindConfig(kind: string, id: string): ModelConfig {
  const name = `hfkit/${ALIASES[kind] ?? kind}`;
  if (Object.hasOwn(PREDEFINED_MODELS, name))
    return { ...(PREDEFINED_MODELS[name as keyof typeof PREDEFINED_MODELS] as ModelConfig) };
  const version = /^tgi-(\d+\.\d+\.\d+)$/.exec(kind)?.[1];
  if (version) return { tgiVersion: version };
  throw new UsageError(`--model ${id}: unknown kind "${kind}" (one of ${KINDS})`);
}

/** The faults `--fault` scripts, with the numeric keys each takes (besides `COMMON_KEYS`). */
const FAULT_KEYS: Partial<Record<FaultType, readonly string[]>> = {
  loading: ["estimatedTime"],
  rateLimit: ["retryAfter", "retryAfterMs"],
  serverError: ["status"],
  unauthorized: [],
  tooLarge: [],
  stall: ["afterChunks"],
  slow: ["delayMs"],
  drop: ["afterChunks"],
  linger: [],
  truncate: ["afterChunks"],
  malformed: ["afterChunks"],
  overloadedInStream: ["afterChunks"],
  keepAlive: ["intervalMs"],
  headersDelay: ["delayMs"],
  latency: ["delayMs", "p50Ms", "p99Ms", "seed"],
  refused: [],
  modelNotServed: [],
  providerNotEnabled: [],
  toolsUnsupported: [],
  badJson: [],
  schemaViolation: [],
};
/** Keys every fault takes: how many requests, and how long (ms), it applies to. */
const COMMON_KEYS = ["times", "durationMs"];
/** Keys a fault cannot do without. */
const REQUIRED: Partial<Record<FaultType, string>> = { slow: "delayMs", headersDelay: "delayMs" };
export const FAULTS = Object.keys(FAULT_KEYS).join(", ");

/** What one `--fault` scripts: `hub.inject(fault, { model, provider })`. */
export interface FaultSpec {
  fault: Fault;
  model: string | undefined;
  provider: string | undefined;
}

/** A provider's name, as the router spells them (`together`, `hf-inference`, `fal-ai`). */
const PROVIDER_NAME = /^[A-Za-z0-9][\w.-]*$/;

/**
 * `--fault TYPE[:key=value,...][@[MODEL][:PROVIDER]]` → a fault, for MODEL or (without) every model, and for
 * PROVIDER's router requests only; a model of `models` (or a predefined one) must list PROVIDER.
 */
export function parseFaultSpec(spec: string, models: Record<string, ModelConfig> = {}): FaultSpec {
  const at = spec.lastIndexOf("@");
  // `@MODEL`, `@MODEL:PROVIDER` (one provider of the model, through the router), `@:PROVIDER` (that provider, any model).
  const [target, provider] = at >= 0 ? splitOnce(spec.slice(at + 1), ":") : [undefined, undefined];
  if (provider === "") throw new UsageError(`--fault: a provider's name after "${spec.slice(at + 1)}"`);
  const model = target === "" && provider !== undefined ? undefined : target;
  const [type = "", params = ""] = splitOnce(at >= 0 ? spec.slice(0, at) : spec, ":");
  const keys = FAULT_KEYS[type as FaultType];
  if (!keys) throw new UsageError(`--fault: unknown fault "${type}" (one of ${FAULTS})`);
  if (model === "") throw new UsageError(`--fault ${type}: a model id after @ (or no @ for every model)`);
  if (provider !== undefined) checkProvider(type, model, provider, models);
  const fault: Record<string, unknown> = { type };
  for (const pair of params.split(",").filter(Boolean)) {
    const [key = "", value = ""] = splitOnce(pair, "=");
    if (!COMMON_KEYS.includes(key) && !keys.includes(key)) {
      throw new UsageError(`--fault ${type}: unknown key "${key}" (it takes ${[...keys, ...COMMON_KEYS].join(", ")})`);
    }
    const n = Number(value);
    if (value === "" || !Number.isFinite(n) || n < 0)
      throw new UsageError(`--fault ${type}: ${key} must be a number >= 0 (got "${value}")`);
    fault[key] = n;
  }
  const required = REQUIRED[type as FaultType];
  if (required && fault[required] === undefined)
    throw new UsageError(`--fault ${type} needs ${required}=N (e.g. ${type}:${required}=500)`);
  // The ranges are the hub's own (`hub.inject` refuses the same values).
  const problem = faultProblem(fault as unknown as Fault);
  if (problem) throw new UsageError(`--fault ${type}: ${problem}`);
  return { fault: fault as unknown as Fault, model, provider };
}

/** A provider's name; for a model the hub knows, one of its providers (else the fault could never apply). */
function checkProvider(
  type: string,
  model: string | undefined,
  provider: string,
  models: Record<string, ModelConfig>,
): void {
  if (!PROVIDER_NAME.test(provider)) {
    throw new UsageError(`--fault ${type}: "${provider}" is not a provider's name (letters, digits, "-", "_", ".")`);
  }
  if (model === undefined) return;
  const config = models[model] ?? (PREDEFINED_MODELS as Record<string, ModelConfig | undefined>)[model];
  // The hub's default for a model without `providers`: hf-inference alone.
  const served = (config?.providers ?? ["hf-inference"]).map((p) => (typeof p === "string" ? p : p.provider));
  if (!served.includes(provider)) {
    const list = served.join(", ") || "none";
    throw new UsageError(`--fault ${type}: ${provider} does not serve ${model} on the router (its providers: ${list})`);
  }
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const i = text.indexOf(separator);
  return i < 0 ? [text, undefined] : [text.slice(0, i), text.slice(i + separator.length)];
}

/** A token the hub takes in strict mode (any but `hf_bad…`): clearly not a real one. */
export const MOCK_TOKEN = "hf_mock_hub_token";

/**
 * The lines that run code against the hub unchanged: `HF_ENDPOINT` (the Hub's model API) and
 * `HF_INFERENCE_ENDPOINT` (the router, hf-inference, the providers), both its one URL; in strict mode a token
 * it takes. Plain `export` lines a script can read; on a terminal, a comment saying what they are for first.
 */
export function envLines(url: string, strict: boolean, tty: boolean): string {
  // An IPv6 address's brackets are a glob to the shell: quoted.
  const value = /^[\w:/.-]+$/.test(url) ? url : `'${url}'`;
  const lines = [
    `export HF_ENDPOINT=${value}`,
    `export HF_INFERENCE_ENDPOINT=${value}`,
    ...(strict ? [`export HF_TOKEN=${MOCK_TOKEN}`] : []),
  ];
  return `${tty ? "# paste into the shell where your code runs:\n" : ""}${lines.join("\n")}\n`;
}
