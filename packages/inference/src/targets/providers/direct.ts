/**
 * A provider's own key (any token that is not a Hugging Face `hf_…` one): as `@huggingface/inference` 4.13,
 * the request goes to the provider's own API, not through the HF router, with the key as the provider
 * reads it (fal: `Authorization: Key …`). An HF token always goes through the router.
 */

/** Each provider's own API, as 4.13 names it. */
const DIRECT: Readonly<Record<string, string>> = {
  baseten: "https://inference.baseten.co",
  cerebras: "https://api.cerebras.ai",
  cohere: "https://api.cohere.com",
  deepinfra: "https://api.deepinfra.com",
  "fal-ai": "https://fal.run",
  "featherless-ai": "https://api.featherless.ai",
  "fireworks-ai": "https://api.fireworks.ai",
  groq: "https://api.groq.com",
  novita: "https://api.novita.ai",
  nscale: "https://inference.api.nscale.com",
  openai: "https://api.openai.com",
  ovhcloud: "https://oai.endpoints.kepler.ai.cloud.ovh.net",
  publicai: "https://api.publicai.co",
  replicate: "https://api.replicate.com",
  scaleway: "https://api.scaleway.ai",
  together: "https://api.together.xyz",
  wavespeed: "https://api.wavespeed.ai",
  "zai-org": "https://api.z.ai",
};

/** fal's queue: `?_subdomain=queue` through the router, its own host with a key. */
const FAL_QUEUE = "?_subdomain=queue";

/** The URL of a provider's route through the HF router (`router`: its base, `routerBase()`). */
const providerUrl = (router: string, provider: string, path: string): string =>
  `${router}/${provider}/${path.replace(/^\/+/, "")}`;

/** True for a provider's own key: a token that is not a Hugging Face one. */
export const isProviderKey = (token: string | undefined): token is string =>
  token !== undefined && !token.startsWith("hf_");

/** Where `path` of `provider` goes for this token: the router (at `router`), or the provider's own API for its own key. */
export function routeOf(provider: string, path: string, token: string | undefined, router: string): string {
  const own = isProviderKey(token) ? DIRECT[provider] : undefined;
  if (!own) return providerUrl(router, provider, path);
  const rest = path.replace(/^\/+/, "");
  if (provider === "fal-ai" && rest.includes(FAL_QUEUE))
    return `https://queue.fal.run/${rest.replace(FAL_QUEUE, "").replace(/\?&/, "?")}`;
  return `${own}/${rest}`;
}

/**
 * Where a provider's requests go for this token before its Hub mapping is read (the origin is what a failover
 * binds a key to): its own API or the router; undefined for `"auto"` with a provider's key (the mapping picks the API).
 */
export function providerHost(provider: string, token: string | undefined, router: string): string | undefined {
  if (provider !== "auto") return routeOf(provider, "", token, router);
  return isProviderKey(token) ? undefined : router;
}

/** The Authorization a provider reads its own key in (fal: `Key`), else none besides the call's Bearer. */
export const keyHeaders = (provider: string, token: string | undefined): Record<string, string> | undefined =>
  provider === "fal-ai" && isProviderKey(token) ? { Authorization: `Key ${token}` } : undefined;
