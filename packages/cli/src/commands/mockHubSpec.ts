import { type Fault, type FaultType, type ModelConfig, PREDEFINED_MODELS } from "@hfkit/mock-hub";
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

export const KINDS = "tgi-2.0, tgi-2.1, tgi-2.2, tgi-2.4.0, tgi-2.4.1, tgi-3.1, tgi-3.2 (or any tgi-X.Y.Z), transformers, vllm, sglang, llamacpp";
const ALIASES: Record<string, string> = { transformers: "transformers-chat", tgi: "tgi-3.2" };

/** A KIND is a predefined model's name without `hfkit/` (`tgi-2.0`, `vllm`, …), or `tgi-X.Y.Z`. */
function kindConfig(kind: string, id: string): ModelConfig {
  const name = `hfkit/${ALIASES[kind] ?? kind}`;
  if (Object.hasOwn(PREDEFINED_MODELS, name)) return { ...(PREDEFINED_MODELS[name as keyof typeof PREDEFINED_MODELS] as ModelConfig) };
  const version = /^tgi-(\d+\.\d+\.\d+)$/.exec(kind)?.[1];
  if (version) return { tgiVersion: version };
  throw new UsageError(`--model ${id}: unknown kind "${kind}" (one of ${KINDS})`);
}

/** The faults `--fault` scripts, with the numeric keys each takes (`times` is taken by all). */
const FAULT_KEYS: Partial<Record<FaultType, readonly string[]>> = {
  loading: ["estimatedTime", "durationMs"],
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
};
/** Keys a fault cannot do without. */
const REQUIRED: Partial<Record<FaultType, string>> = { slow: "delayMs", headersDelay: "delayMs" };
export const FAULTS = Object.keys(FAULT_KEYS).join(", ");

/** `--fault TYPE[:key=value,...][@MODEL]` → a fault, for MODEL or (without) every model. */
export function parseFaultSpec(spec: string): { fault: Fault; model: string | undefined; provider: string | undefined } {
  const at = spec.lastIndexOf("@");
  // `@MODEL`, `@MODEL:PROVIDER` (one provider of the model, through the router), `@:PROVIDER` (that provider, any model).
  const [target, provider] = at >= 0 ? splitOnce(spec.slice(at + 1), ":") : [undefined, undefined];
  if (provider === "") throw new UsageError(`--fault: a provider's name after "${spec.slice(at + 1)}"`);
  const model = target === "" && provider !== undefined ? undefined : target;
  const [type = "", params = ""] = splitOnce(at >= 0 ? spec.slice(0, at) : spec, ":");
  const keys = FAULT_KEYS[type as FaultType];
  if (!keys) throw new UsageError(`--fault: unknown fault "${type}" (one of ${FAULTS})`);
  if (model === "") throw new UsageError(`--fault ${type}: a model id after @ (or no @ for every model)`);
  const fault: Record<string, unknown> = { type };
  for (const pair of params.split(",").filter(Boolean)) {
    const [key = "", value = ""] = splitOnce(pair, "=");
    if (key !== "times" && !keys.includes(key)) {
      throw new UsageError(`--fault ${type}: unknown key "${key}" (it takes ${[...keys, "times"].join(", ")})`);
    }
    const n = Number(value);
    if (value === "" || !Number.isFinite(n) || n < 0) throw new UsageError(`--fault ${type}: ${key} must be a number >= 0 (got "${value}")`);
    fault[key] = n;
  }
  const required = REQUIRED[type as FaultType];
  if (required && fault[required] === undefined) throw new UsageError(`--fault ${type} needs ${required}=N (e.g. ${type}:${required}=500)`);
  return { fault: fault as unknown as Fault, model, provider };
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const i = text.indexOf(separator);
  return i < 0 ? [text, undefined] : [text.slice(0, i), text.slice(i + separator.length)];
}
