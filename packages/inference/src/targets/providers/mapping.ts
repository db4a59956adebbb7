/**
 * The Hub's inference provider mapping of a model (`GET {hubUrl}/api/models/{id}?expand[]=inferenceProviderMapping`,
 * as `@huggingface/inference` 4.13 looks it up): fetched once per (hub, model, token), kept in one bounded memory
 * with an expiry shared by every client; concurrent first calls wait for one lookup.
 */
import { LookupMemory, lookupCall, perCredential } from "../../core/lookups";
import { shared } from "../../core/shared";
import { toHttpError } from "../../core/errorTable";
import { InferenceClientHubApiError } from "../../core/hfErrors";
import { modelPath } from "../routes";
import { parseMaybeJson, readText } from "../../core/body";
import type { Call } from "../../core/call";
import { fetchUnder, requestIdOf } from "../../core/request";
import { isRecord, type JsonObject } from "../../core/json";
import type { FetchLike } from "../../types";

export const HF_HUB_URL = "https://huggingface.co";
/** How many models' mappings are kept (each for the memory's hour). */
export const MAX_MAPPINGS = 300;

/** One provider's entry in a model's mapping. */
export interface ProviderMapping {
  readonly provider: string;
  /** The provider's own id of the model. */
  readonly providerId: string;
  readonly task: string;
  readonly status: string;
  /** The kind of adapter the model is, for a base model the provider serves (`"lora"`). */
  readonly adapter?: string;
  /** The adapter's weights file in the model's repository. */
  readonly adapterWeightsPath?: string;
}

/** The mappings looked up, and the lookups in flight. */
export const mappingMemory = /* @__PURE__ */ shared(
  "mappings",
  () => new LookupMemory<readonly ProviderMapping[]>(MAX_MAPPINGS),
);

/** What a lookup is sent with. */
export interface Lookup {
  readonly hubUrl: string;
  readonly token: string | undefined;
  readonly fetch: FetchLike | undefined;
  readonly call: Call;
}

/** The mapping of `model`, in the Hub's order: remembered, else one lookup shared by the calls that wait for it. */
export function providerMappings(model: string, lookup: Lookup): Promise<readonly ProviderMapping[]> {
  // Per token: a private model's mapping, or a 401, is never handed to a caller with another token.
  const key = perCredential(`${lookup.hubUrl}|${model}`, hubToken(lookup.token));
  const running = mappingMemory.known(key) ?? mappingMemory.track(key, fetchMappings(model, lookup));
  const url = urlOf(model, lookup.hubUrl);
  return lookup.call.until(running).catch((error: unknown) => {
    throw lookup.call.translate(error, url);
  });
}

/** The token the Hub is sent: as 4.13, a Hugging Face token only, never a provider's key. */
const hubToken = (token: string | undefined): string | undefined => (token?.startsWith("hf_") ? token : undefined);

const urlOf = (model: string, hubUrl: string): string =>
  `${hubUrl.replace(/\/+$/, "")}/api/models/${modelPath(model)}?expand[]=inferenceProviderMapping`;

/** One lookup, under its own clock (a waiting call that gives up does not end it for the others). */
async function fetchMappings(model: string, lookup: Lookup): Promise<readonly ProviderMapping[]> {
  const url = urlOf(model, lookup.hubUrl);
  const secret = lookup.token;
  const own = lookupCall(secret);
  try {
    const token = hubToken(secret);
    const headers: Record<string, string> = token ? { Authorization: `Bearer ${token}` } : {};
    const { res, release } = await fetchUnder(own, lookup, url, { method: "GET", headers });
    return await readMappings(model, url, res, own).finally(release);
  } finally {
    own.finish();
  }
}

/** The lookup's answer: the mapping, or the Hub's typed error. */
async function readMappings(
  model: string,
  url: string,
  res: Response,
  call: Call,
): Promise<readonly ProviderMapping[]> {
  const secret = call.secret;
  const text = await readText(call, res, false);
  const body = parseMaybeJson(text);
  const fail = (why: string, status = res.status): InferenceClientHubApiError => {
    const error = toHttpError({
      status,
      body,
      url,
      method: "GET",
      requestId: requestIdOf(res, secret),
      source: "hub",
      secret,
    });
    error.message = `Failed to fetch inference provider mapping for model ${model}: ${why || error.message}`;
    return error;
  };
  if (!res.ok) throw fail("");
  const mapping = isRecord(body) ? body.inferenceProviderMapping : undefined;
  if (typeof mapping !== "object" || mapping === null)
    throw fail(`We have not been able to find inference provider information for model ${model}.`, 502);
  return normalize(mapping);
}

/** The mapping as a list, in the Hub's order (an object by provider, or already a list). */
function normalize(mapping: object): ProviderMapping[] {
  const entries: (readonly [unknown, unknown])[] = Array.isArray(mapping)
    ? mapping.map((m: JsonObject) => [m.provider, m] as const)
    : Object.entries(mapping);
  return entries.filter(isEntry).map(([provider, m]) => ({
    provider,
    providerId: m.providerId,
    task: String(m.task),
    status: String(m.status),
    ...(typeof m.adapter === "string" ? { adapter: m.adapter } : {}),
    ...(typeof m.adapterWeightsPath === "string" ? { adapterWeightsPath: m.adapterWeightsPath } : {}),
  }));
}

/** An entry of the Hub's mapping: a provider's name, and an object with its own id of the model. */
const isEntry = (e: readonly [unknown, unknown]): e is readonly [string, JsonObject & { providerId: string }] =>
  typeof e[0] === "string" && isRecord(e[1]) && typeof e[1].providerId === "string";
