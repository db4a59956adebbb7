/**
 * The candidates of a call that fails over — each provider of `provider: [...]`, then each of `fallbackModels` —
 * every one checked (an InputError naming the field) before anything is sent, each with the token it may be sent
 * (`credentials.ts`: the call's key only where it belongs).
 */
import { InputError } from "../core/errors";
import { isRecord } from "../core/json";
import { redactUrl } from "../core/redact";
import type { BaseArgs, ChatRouting, OneChatArgs, Options } from "../types";
import { bindKey } from "./credentials";
import { envToken } from "../core/environment";
import { routerBase } from "../targets/routes";
import { providerHost } from "../targets/providers/direct";

/** The most candidates one call may name (each is a request at worst). */
export const MAX_CANDIDATES = 16;

/** A model id as the Hub spells them: `name` or `org/name`, of letters, digits, `-`, `_`, `.` (no `..`: the route checks). */
const MODEL_ID = /^[\w.-]+(\/[\w.-]+)?$/;

/** A provider name: what `provider` and a `:provider` suffix take. */
const PROVIDER_NAME = /^[A-Za-z0-9][\w.-]*$/;

/** The router's provider policies: a suffix that chooses, not a provider's name. */
const POLICIES = new Set(["fastest", "cheapest", "preferred"]);

/** One target of a call that fails over. */
export interface Candidate<A = OneChatArgs> {
  /** As `onFailover` and the attempts name it: `model:provider`, `model:auto`, or an endpoint's origin. */
  readonly name: string;
  /** The argument that names it, for an InputError: `provider[1]`, `fallbackModels[0]`, `endpointUrl`, `model`. */
  readonly field: string;
  /** The model id, without a provider suffix: what the catalog is searched for. */
  readonly model: string;
  /** The provider asked for by name; undefined for the router's choice (auto or a policy such as `:fastest`). */
  readonly provider: string | undefined;
  /** Its arguments, `accessToken` the token bound to its host. */
  readonly args: A;
  readonly options: Options;
  /** Sent through the HF router (not an endpoint or another base URL): the catalog applies. */
  readonly router: boolean;
  /** Its share of the calls, from `provider: [{ name, weight }]`; undefined when the list gives none. */
  readonly weight?: number;
}

/**
 * Where a candidate's requests go, after its route's own checks: a URL, or a provider of a task's Hub mapping
 * (its own API or the router, as the token decides: `providers/direct.ts`).
 */
export type RouteOf<A> = (args: A, options: Options) => string | { readonly provider: string };

/** The candidates, in order, and the token the router's catalog may be read with (undefined: it may not be read). */
export interface Candidates<A> {
  readonly list: readonly Candidate<A>[];
  readonly catalog: { readonly token: string | undefined } | undefined;
}

/** The call's candidates, checked, each with its token. */
export function candidatesOf<A extends BaseArgs>(
  args: Omit<A, "provider"> & ChatRouting,
  options: Options,
  check: (args: A) => void,
  route: RouteOf<A>,
  suffixed = true,
): Candidates<A> {
  const { provider, fallbackModels, accessToken, ...rest } = args;
  const chat = rest as unknown as A; // the call's own arguments, without its routing and its key
  check(chat);
  const main = mainCandidates(chat, provider, options);
  const unbound = [...main, ...fallbackCandidates(chat, fallbackModels, options, suffixed, main)];
  if (unbound.length > MAX_CANDIDATES) {
    const field = main.length > MAX_CANDIDATES ? "provider" : "fallbackModels";
    const most = `at most ${MAX_CANDIDATES} candidates (providers and fallback models)`;
    throw new InputError(`A call may name ${most}, got ${unbound.length}`, field);
  }
  const router = routerBase(options.routerUrl);
  const hostOf = (c: Candidate<A>, token: string | undefined): string | undefined => {
    const to = route({ ...c.args, accessToken: token }, c.options);
    const url = typeof to === "string" ? to : providerHost(to.provider, token, router);
    return url === undefined ? undefined : new URL(url).origin;
  };
  const routerOrigin = new URL(router).origin;
  const bound = bindKey(unbound, accessToken ?? envToken(), hostOf, routerOrigin);
  const list = unbound.map((c, i) => ({ ...c, args: { ...c.args, accessToken: bound.tokens[i] } }));
  for (const c of list) route(c.args, c.options); // each route's own checks, with its own token, before any request
  return { list, catalog: bound.router };
}

/** The main model's candidates: each provider of the list, or the one target (endpoint, base, provider, router). */
function mainCandidates<A extends BaseArgs>(
  chat: A,
  provider: ChatRouting["provider"],
  options: Options,
): Candidate<A>[] {
  const model = typeof chat.model === "string" ? chat.model : undefined;
  const endpointUrl = chat.endpointUrl ?? options.endpointUrl;
  const chosen: unknown = provider ?? options.provider; // the call's own, else the client's
  if (!(chosen === undefined || typeof chosen === "string" || Array.isArray(chosen))) {
    const got = describeValue(chosen);
    throw new InputError(`\`provider\` must be a provider's name or a list of them (got ${got})`, "provider");
  }
  const listed = Array.isArray(chosen);
  const weighted = Array.isArray(chosen) ? providerList(chosen) : [{ name: chosen }];
  const providers = weighted.map((p) => p.name);
  if (listed && (endpointUrl !== undefined || options.baseUrl !== undefined)) {
    const why = "`endpointUrl` and `baseUrl` name one server (name other models in `fallbackModels`)";
    throw new InputError(`A \`provider\` list needs the HF router: ${why}`, "provider");
  }
  if (listed && model?.includes(":")) {
    const both = "give `provider` a list or the model a suffix, not both";
    throw new InputError(`\`model\` names its provider (${JSON.stringify(model)}): ${both}`, "provider");
  }
  return providers.map((p, i) => {
    const [id = "", suffix] = (model ?? "").split(":", 2);
    const named = suffix !== undefined && !POLICIES.has(suffix) ? suffix : p === "auto" ? undefined : p;
    const own = suffix !== undefined ? (model ?? "") : `${id}:${p ?? "auto"}`;
    const name = endpointUrl !== undefined ? originOf(endpointUrl) : own;
    const field = listed ? `provider[${i}]` : endpointUrl !== undefined ? "endpointUrl" : "model";
    const router = endpointUrl === undefined && options.baseUrl === undefined && named !== "hf-inference";
    const weight = weighted[i]?.weight;
    const c = { name, field, model: id, provider: named, args: { ...chat, provider: p }, options, router };
    return weight === undefined ? c : { ...c, weight };
  });
}

/** The candidates of `fallbackModels`, after the main model's (`before`); none repeats a candidate. */
function fallbackCandidates<A extends BaseArgs>(
  chat: A,
  fallbackModels: unknown,
  options: Options,
  suffixed: boolean,
  before: readonly Candidate<A>[],
): Candidate<A>[] {
  const out: Candidate<A>[] = [];
  for (const [i, id] of fallbackList(fallbackModels).entries()) {
    const field = `fallbackModels[${i}]`;
    const [base = "", suffix] = id.split(":", 2);
    const named = suffix !== undefined && !POLICIES.has(suffix) ? suffix : undefined;
    if (!suffixed && suffix !== undefined && named === undefined) {
      throw new InputError(`\`${field}\`: the router chooses by :${suffix} for chat only; name a provider here`, field);
    }
    // The router reads `model:provider` in a chat's body; another task's call takes the provider apart.
    const routing = suffixed ? { model: id, provider: "auto" } : { model: base, provider: named ?? "auto" };
    const args = { ...chat, ...routing, endpointUrl: undefined };
    const name = suffix === undefined ? `${id}:auto` : id;
    if ([...before, ...out].some((c) => c.name === name)) {
      throw new InputError(`\`${field}\` repeats the candidate ${name}: each is tried once`, field);
    }
    const router = options.baseUrl === undefined && named !== "hf-inference";
    const own = { ...options, endpointUrl: undefined };
    out.push({ name, field, model: base, provider: named, args, options: own, router });
  }
  return out;
}

/** A provider of the list, named, with its weight when it has one. */
interface Listed {
  readonly name: string | undefined;
  readonly weight?: number;
}

function providerList(list: readonly unknown[]): Listed[] {
  if (list.length === 0)
    throw new InputError("`provider` must list at least one provider (or be a provider's name)", "provider");
  const seen = new Set<string>();
  return list.map((entry, i) => {
    const field = `provider[${i}]`;
    const p: unknown = isRecord(entry) ? entry.name : entry;
    if (typeof p !== "string" || !PROVIDER_NAME.test(p)) {
      throw new InputError(
        `\`${field}\` must be a provider's name such as "together" or "auto" (got ${describeValue(p)})`,
        field,
      );
    }
    if (seen.has(p))
      throw new InputError(`\`${field}\` repeats ${JSON.stringify(p)}: each candidate is tried once`, field);
    seen.add(p);
    if (!isRecord(entry) || entry.weight === undefined) return { name: p, weight: isRecord(entry) ? 1 : undefined };
    const weight = entry.weight;
    if (typeof weight !== "number" || !(weight > 0) || weight === Infinity) {
      throw new InputError(
        `\`${field}.weight\` must be a positive number (got ${typeof weight === "number" ? weight : describeValue(weight)})`,
        `${field}.weight`,
      );
    }
    return { name: p, weight };
  });
}

function fallbackList(list: unknown): string[] {
  if (list === undefined) return [];
  if (!Array.isArray(list)) {
    const ids = `a list of model ids such as "org/name" or "org/name:provider" (got ${describeValue(list)})`;
    throw new InputError(`\`fallbackModels\` must be ${ids}`, "fallbackModels");
  }
  return list.map((id: unknown, i) => {
    const field = `fallbackModels[${i}]`;
    const [base = "", suffix, extra] = typeof id === "string" ? id.split(":") : [];
    const badSuffix = suffix !== undefined && !PROVIDER_NAME.test(suffix);
    if (typeof id !== "string" || !MODEL_ID.test(base) || extra !== undefined || badSuffix) {
      const got = describeValue(id);
      throw new InputError(
        `\`${field}\` must be a model id such as "org/name" or "org/name:provider" (got ${got})`,
        field,
      );
    }
    return id;
  });
}

const describeValue = (v: unknown): string =>
  typeof v === "string"
    ? JSON.stringify(v.slice(0, 120))
    : Array.isArray(v)
      ? "an array"
      : v === null
        ? "null"
        : typeof v;

const originOf = (url: string): string => {
  try {
    return new URL(redactUrl(url)).origin;
  } catch {
    return "endpoint";
  }
};
