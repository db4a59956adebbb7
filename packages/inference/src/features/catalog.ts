/**
 * The HF router's catalog (`GET {routerUrl}/v1/models`): the models it serves and, per provider, its status,
 * context length, prices and capabilities. Looked up once per (router, token), kept in a bounded memory with an
 * expiry; concurrent calls wait for one lookup. Nothing on the chat path imports it.
 */
import { LookupMemory, lookupCall, perCredential } from "../core/lookups";
import { shared } from "../core/shared";
import { routerBase } from "../targets/routes";
import { parseMaybeJson, readText } from "../core/body";
import { toHttpError } from "../core/errorTable";
import { InputError, MalformedEventError } from "../core/errors";
import { isRecord } from "../core/json";
import { redactUrl, sealError, serverText } from "../core/redact";
import { type Connection, fetchUnder, requestIdOf } from "../core/request";
import { sending } from "../core/sending";
import { checkArgs } from "../checks/params";
import type { ListModelsOptions, RouterModel, RouterModelProvider } from "../types";

/** How many lists are kept, one per (router, token), each for the memory's hour. */
export const MAX_CATALOGS = 20;

/** The lists looked up, and the lookups in flight. */
export const catalogMemory = /* @__PURE__ */ shared(
  "catalog",
  () => new LookupMemory<readonly RouterModel[]>(MAX_CATALOGS),
);

/**
 * The models the HF router serves, each with its providers: status, context length, pricing (dollars per million
 * tokens) and capabilities. Remembered for an hour per token (`refresh: true` asks again); a field the router
 * leaves out or sends in another type is absent, an entry without an id is skipped.
 */
export async function listModels(options: ListModelsOptions = {}): Promise<readonly RouterModel[]> {
  if (typeof options !== "object" || options === null)
    throw new InputError("The options of listModels must be an object", "options");
  const { accessToken, routerUrl, refresh } = options;
  checkArgs({ accessToken }, options);
  if (refresh !== undefined && typeof refresh !== "boolean")
    throw new InputError(`\`refresh\` must be true or false (got ${typeof refresh})`, "refresh");
  const url = `${routerBase(routerUrl)}/v1/models`;
  const { call, conn } = sending({ accessToken }, options, "the router's catalog");
  const secret = call.secret;
  try {
    // Per token: what the router lists for one account is never handed to another.
    const key = perCredential(url, secret);
    return await call.until(
      catalogMemory.known(key, refresh) ?? catalogMemory.track(key, fetchCatalog(url, conn, secret)),
    );
  } catch (error) {
    throw sealError(call.translate(error, url), secret);
  } finally {
    call.finish();
  }
}

/** One lookup, under its own clock (a waiting call that gives up does not end it for the others). */
async function fetchCatalog(
  url: string,
  conn: Connection,
  secret: string | undefined,
): Promise<readonly RouterModel[]> {
  const own = lookupCall(secret);
  try {
    conn.debug?.(`GET ${redactUrl(url)}`);
    const { res, release } = await fetchUnder(own, conn, url, { method: "GET", headers: conn.headers });
    const requestId = requestIdOf(res, secret);
    conn.onResponse?.({ status: res.status, headers: res.headers, url: redactUrl(url), requestId });
    const text = await readText(own, res, res.ok).finally(release);
    const body = parseMaybeJson(text);
    if (!res.ok) throw toHttpError({ status: res.status, body, url, method: "GET", requestId, source: "hub", secret });
    const data = isRecord(body) ? body.data : undefined;
    if (!Array.isArray(data))
      throw new MalformedEventError(
        `The router's model list is not {"data": [...]}: ${serverText(text, secret, 120)}`,
        text,
        undefined,
        secret,
      );
    return data.flatMap(toModel);
  } finally {
    own.finish();
  }
}

const text = (v: unknown): string | undefined => (typeof v === "string" ? v : undefined);
const count = (v: unknown): number | undefined => (typeof v === "number" && v >= 0 && v < Infinity ? v : undefined);
const flag = (v: unknown): boolean | undefined => (typeof v === "boolean" ? v : undefined);
const strings = (v: unknown): string[] => (Array.isArray(v) ? v.filter((x): x is string => typeof x === "string") : []);

/** `value` without its undefined fields: what the router left out is absent, not `undefined`. */
function compact<T extends object>(value: T): T {
  for (const key in value) if (value[key] === undefined) delete value[key];
  return value;
}

/** An entry of the list, typed; none without a string id. */
function toModel(m: unknown): RouterModel[] {
  if (!isRecord(m) || typeof m.id !== "string" || m.id === "") return [];
  const a = m.architecture;
  return [
    compact({
      id: m.id,
      created: count(m.created),
      owned_by: text(m.owned_by),
      architecture: isRecord(a)
        ? { input_modalities: strings(a.input_modalities), output_modalities: strings(a.output_modalities) }
        : undefined,
      providers: Array.isArray(m.providers) ? m.providers.flatMap(toProvider) : [],
    }),
  ];
}

/** A provider of an entry, typed; none without a provider name. Pricing is kept when both prices are numbers. */
function toProvider(p: unknown): RouterModelProvider[] {
  if (!isRecord(p) || typeof p.provider !== "string" || p.provider === "") return [];
  const price = isRecord(p.pricing) ? p.pricing : {};
  const input = count(price.input);
  const output = count(price.output);
  return [
    compact({
      provider: p.provider,
      status: text(p.status),
      context_length: count(p.context_length),
      pricing: input === undefined || output === undefined ? undefined : { input, output },
      supports_tools: flag(p.supports_tools),
      supports_structured_output: flag(p.supports_structured_output),
      is_model_author: flag(p.is_model_author),
    }),
  ];
}
