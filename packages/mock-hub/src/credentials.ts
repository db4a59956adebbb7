/**
 * What the router and the Hub make of a request's credentials: an `Authorization: Bearer hf_…` is a Hugging Face
 * token; `hf_bad…` is one they refuse (in both modes); in strict mode, anything else given is refused too.
 */

/** The token of an `Authorization: Bearer …` header (the scheme in any case), if there is one. */
function bearerToken(request: Request): string | undefined {
  return /^bearer\s+(\S+)/i.exec(request.headers.get("authorization") ?? "")?.[1];
}

/** A Hugging Face token: what the router takes in strict mode. */
export function hasHfToken(request: Request): boolean {
  return bearerToken(request)?.startsWith("hf_") === true;
}

/** The token the hub always refuses, to script a revoked one: `hf_bad…`. */
export function hasBadToken(request: Request): boolean {
  return bearerToken(request)?.startsWith("hf_bad") === true;
}

/** Credentials the Hub refuses: an `hf_bad…` token; in strict mode, any that are not an HF token. */
export function refusedCredentials(request: Request, strict: boolean): boolean {
  return hasBadToken(request) || (strict && request.headers.has("authorization") && !hasHfToken(request));
}
