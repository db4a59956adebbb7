/**
 * The one rule for the credential of each candidate of a call that fails over: the call's key goes only to the
 * host it belongs to. A Hugging Face token (`hf_…`), or none, is sent to every candidate: the router's and the
 * endpoint or base URL the call names, where it was given for (a provider's own API never takes one:
 * `providers/direct.ts`). Any other key belongs to one host: the first candidate's that is not the HF router (the
 * endpoint, the base URL, a provider's own API), else the router. A candidate sent elsewhere gets, on the router,
 * the Hugging Face token of the environment (`HF_TOKEN`); with none, the call is an InputError naming the
 * candidate, before any request. Each candidate carries its token from here; nothing else gives it one.
 */
import { envToken } from "../core/environment";
import { InputError } from "../core/errors";

/** A candidate as the rule sees it: its name, the argument that names it. */
export interface Named {
  readonly name: string;
  readonly field: string;
}

/** Where `c`'s requests go with `token` (an origin): undefined when a lookup decides; throws if the route refuses it. */
export type HostOf<C> = (c: C, token: string | undefined) => string | undefined;

/** Each candidate's token, in order, and the router's (its catalog); `router` undefined: nothing may be sent there. */
export interface Bound {
  readonly tokens: readonly (string | undefined)[];
  readonly router: { readonly token: string | undefined } | undefined;
}

interface Host {
  readonly origin?: string;
  /** The route's own refusal of the token (an InputError). */
  readonly refused?: Error;
}

function hostWith<C>(hostOf: HostOf<C>, c: C, token: string | undefined): Host {
  try {
    return { origin: hostOf(c, token) };
  } catch (refused) {
    return { refused: refused instanceof Error ? refused : undefined };
  }
}

/** `HF_TOKEN` (or `HUGGING_FACE_HUB_TOKEN`) when it is a Hugging Face token: what the router may be sent instead. */
function routerToken(): string | undefined {
  const token = envToken();
  return token?.startsWith("hf_") ? token : undefined;
}

/** The tokens of `candidates` for the call's `key`, the router at origin `router`. */
export function bindKey<C extends Named>(
  candidates: readonly C[],
  key: string | undefined,
  hostOf: HostOf<C>,
  router: string,
): Bound {
  if (!key || key.startsWith("hf_")) return { tokens: candidates.map(() => key), router: { token: key } };
  const hosts = candidates.map((c) => hostWith(hostOf, c, key));
  const own = hosts.find((h) => h.origin !== undefined && h.origin !== router)?.origin;
  const owner = own ?? (hosts[0]?.origin === router ? router : undefined);
  const hf = routerToken();
  const tokens = candidates.map((c, i) => {
    const host = hosts[i] ?? {};
    if (host.origin !== undefined && host.origin === owner) return key;
    if (hf !== undefined && hostWith(hostOf, c, hf).origin === router) return hf;
    throw host.refused ?? foreignKey(c, host.origin, owner);
  });
  return { tokens, router: owner === router ? { token: key } : hf === undefined ? undefined : { token: hf } };
}

/** The InputError of a candidate the call's key does not belong to (it names hosts, never the key). */
function foreignKey(c: Named, host: string | undefined, owner: string | undefined): InputError {
  const where = host ?? "the provider the Hub's mapping picks (not known before the request)";
  const belongs = owner === undefined ? "a host known before the request: name the provider it is for" : owner;
  return new InputError(
    `\`${c.field}\` (${c.name}) would be sent to ${where}, and the call's key is not a Hugging Face token: ` +
      `it goes only to ${belongs}. Set HF_TOKEN to a Hugging Face token for the router's candidates, pass a ` +
      "Hugging Face token (the router serves every provider), or drop this candidate",
    c.field,
  );
}
