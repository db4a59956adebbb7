/**
 * Where a task that is not chat goes on a provider: the pair checked before any request, the model's
 * mapping looked up on the Hub (`mapping.ts`), the provider picked (`"auto"`: the first live one mapped
 * for the task that hfkit implements, or hf-inference), its route, body and headers.
 */
import { InputError } from "../../core/errors";
import { checkBaseUrl, envUrl, routerBase } from "../routes";
import type { Call } from "../../core/call";
import type { Outgoing } from "../../core/request";
import type { Logger } from "../../types";
import { warnOnce } from "../../core/logger";
import { keyHeaders, routeOf } from "./direct";
import {
  type BodyMaker,
  providerPayload,
  type ProviderArgs,
  type ProviderIo,
  type ProviderOptions,
  type ProviderTask,
} from "./helper";
import { HF_HUB_URL, type ProviderMapping, providerMappings } from "./mapping";
import { implementedPairs, providerTask } from "./table";

/** One request of a task, ready to send, and how its answer is read. */
export interface Target {
  readonly out: Outgoing;
  readonly headers?: Readonly<Record<string, string>>;
  /** The third-party provider the request goes to (its own API for its own key, else through the router). */
  readonly provider?: string;
  readonly answer: (value: unknown, secret: string | undefined, io: ProviderIo) => unknown;
  /** The request creates a billed job: sent once its bytes may have gone out (see {@link ProviderTask.submits}). */
  readonly submitOnce?: boolean;
}

/** A provider call checked before any request: the provider (or `"auto"`), and for a named one its format and body. */
export interface ProviderPlan {
  readonly provider: string;
  readonly model: string;
  readonly task: string;
  readonly named?: { readonly format: ProviderTask; readonly make: BodyMaker };
  readonly hubUrl: string;
  /** The HF router's base (`routerBase()`), where the provider's routes are. */
  readonly router: string;
}

/** A named provider must serve the task here: an InputError listing the implemented pairs, before any request. */
export function planProvider(
  provider: string,
  task: string,
  model: string,
  args: ProviderArgs,
  options: ProviderOptions,
): ProviderPlan {
  const hubUrl =
    options.hubUrl === undefined ? (envUrl("HF_ENDPOINT") ?? HF_HUB_URL) : checkBaseUrl(options.hubUrl, "hubUrl");
  const router = routerBase(options.routerUrl);
  if (provider === "auto") return { provider, model, task, hubUrl, router };
  const format = providerTask(provider, task);
  if (!format) {
    throw new InputError(
      `Task '${task}' is not supported for provider '${provider}' here: hfkit runs ${task} on "hf-inference", on a dedicated endpoint (\`endpointUrl\`) and on the implemented provider × task pairs (${implementedPairs().join(", ")}); every provider serves chat (chatCompletion, chatCompletionStream)`,
      "provider",
    );
  }
  return { provider, model, task, hubUrl, router, named: { format, make: format.body(args, options) } };
}

/** What the resolution needs of the call. */
export interface Resolving {
  readonly call: Call;
  readonly options: ProviderOptions;
  readonly args: ProviderArgs;
  readonly logger: Logger;
  /** The hf-inference target of the model's id there, when `"auto"` picks hf-inference. */
  readonly onHfInference: (model: string) => Promise<Target>;
}

/** The mapping looked up (once per model), the provider picked, and the target made. */
export async function resolveProvider(plan: ProviderPlan, r: Resolving): Promise<Target> {
  const mappings = await providerMappings(plan.model, {
    hubUrl: plan.hubUrl,
    token: r.call.secret,
    fetch: r.options.fetch,
    call: r.call,
  });
  const { entry, format, make } = plan.named
    ? { ...plan.named, entry: pickNamed(plan, mappings) }
    : pickAuto(plan, mappings);
  if (entry.status === "staging") {
    warnOnce(
      r.logger,
      `staging:${plan.model}:${entry.provider}`,
      `Model ${plan.model} is in staging mode for provider ${entry.provider}. Meant for test purposes only.`,
    );
  }
  if (!format) return r.onHfInference(entry.providerId);
  const made = make ?? format.body(r.args, r.options);
  const key = keyHeaders(entry.provider, r.call.secret);
  return {
    out: {
      url: routeOf(entry.provider, format.path(entry.providerId), r.call.secret, plan.router),
      body: providerPayload(await made(entry.providerId, entry)),
    },
    headers: key || format.headers ? { ...format.headers, ...key } : undefined,
    provider: entry.provider,
    submitOnce: format.submits,
    answer: (value, secret, io) => format.answer(value, r.options, secret, io),
  };
}

/** The entry picked, and its provider's format (none for hf-inference) with, for a named provider, the body maker already made. */
interface Picked {
  readonly entry: ProviderMapping;
  readonly format?: ProviderTask;
  readonly make?: BodyMaker;
}

const mapped = (mappings: readonly ProviderMapping[]): string =>
  mappings.length ? mappings.map((m) => `${m.provider} (${m.task}, ${m.status})`).join(", ") : "no provider";

/** `"auto"`: the first live provider the Hub maps for the task, in the Hub's order, among hf-inference (no format) and the implemented pairs. */
function pickAuto(plan: ProviderPlan, mappings: readonly ProviderMapping[]): Picked {
  for (const entry of mappings) {
    if (entry.status !== "live" || entry.task !== plan.task) continue;
    if (entry.provider === "hf-inference") return { entry };
    const format = providerTask(entry.provider, plan.task);
    if (format) return { entry, format };
  }
  throw new InputError(
    `No Inference Provider available for model ${plan.model}. (provider "auto", task ${plan.task}: the Hub maps it to ${mapped(mappings)}; hfkit picks a live one among hf-inference and ${implementedPairs().join(", ")})`,
    "provider",
  );
}

/** A named provider: mapped for the task, in 4.13's words where they fail. */
function pickNamed(plan: ProviderPlan, mappings: readonly ProviderMapping[]): ProviderMapping {
  const entry = mappings.find((m) => m.provider === plan.provider);
  if (!entry) {
    throw new InputError(
      `We have not been able to find inference provider information for model ${plan.model}. (provider ${plan.provider}, task ${plan.task}: the Hub maps it to ${mapped(mappings)})`,
      "provider",
    );
  }
  if (entry.task !== plan.task) {
    throw new InputError(
      `Model ${plan.model} is not supported for task ${plan.task} and provider ${plan.provider}. Supported task: ${entry.task}.`,
      "provider",
    );
  }
  return entry;
}
