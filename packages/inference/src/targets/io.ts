/**
 * The requests of a task once its target is known: the answer of the request itself (JSON, or a Blob), and
 * what a provider's answer names (a queue's polls, the media file), each under the call's limits.
 */
import { HttpError, MalformedEventError, RateLimitError, ServerError, ConnectionError } from "../core/errors";
import { toHttpError } from "../core/errorTable";
import { InferenceClientProviderOutputError } from "../core/hfErrors";
import { redactUrl, serverText } from "../core/redact";
import { isInternalUrl } from "../core/address";
import { pump } from "../core/body";
import type { Call } from "../core/call";
import {
  type Connection,
  fetchUnder,
  mediaType,
  type Outgoing,
  parseMaybeJson,
  readText,
  type Reply,
  requestIdOf,
  sendOnce,
} from "../core/request";
import type { Sending } from "../core/sending";
import type { ProviderIo } from "./providers/helper";
import { routeOf } from "./providers/direct";

/** The largest binary answer read (an image, speech, audio): past it the answer is refused, never buffered. */
const MAX_BINARY_BYTES = 268_435_456; // 256 MiB, as a literal: an unused product is kept by bundlers

/** Reads a binary answer as a Blob of the response's content type; past `cap` bytes, a MalformedEventError. */
export async function readBlob(call: Call, res: Response, cap = MAX_BINARY_BYTES): Promise<Blob> {
  const pieces: Uint8Array[] = [];
  let bytes = 0;
  await pump(call, res, (value) => {
    call.data();
    bytes += value.byteLength;
    if (bytes > cap)
      throw new MalformedEventError(
        `The server's binary answer is larger than ${cap / 1048576} MB; reading stopped there`,
        "",
        undefined,
        call.secret,
      );
    pieces.push(value);
    return false;
  });
  return new Blob(pieces as BlobPart[], { type: res.headers.get("content-type") ?? "" });
}

/** One try of a task's request (the retry loop's attempt): sent, and its answer read. */
export const answerTries = (call: Call, conn: Connection, out: Outgoing) => async (): Promise<unknown> =>
  readAnswer(call, await sendOnce(call, conn, out));

/** What a provider's answer may fetch, for a call to `target` (a URL on a private address refused unless the call allows it). */
export function providerIo(
  ctx: Sending,
  conn: Connection,
  target: string,
  provider: string | undefined,
  allowPrivateNetwork: boolean,
  router: string,
): ProviderIo {
  const { call, policy } = ctx;
  const inNetwork = outward(target, allowPrivateNetwork, call.secret);
  const again = policy.enabled ? Math.min(GET_RETRIES, policy.maxRetries) : 0;
  return {
    file: (url) => idempotent(call, again, () => getFile(call, conn, inNetwork(url))),
    json: (url) => idempotent(call, again, () => getJson(call, conn, inNetwork(url))),
    sleep: (ms) => call.sleep(ms),
    route: (path) => routeOf(provider ?? "hf-inference", path, call.secret, router),
  };
}

/**
 * The check of every URL a provider's answer names: one on a loopback, private, link-local or metadata address is
 * refused (a typed error, nothing fetched), unless `allowed` or the call's own target is such a host.
 */
function outward(target: string, allowed: boolean, secret: string | undefined): (url: string) => string {
  if (allowed || isInternalUrl(target)) return (url) => url;
  return (url) => {
    if (!isInternalUrl(url)) return url;
    throw new InferenceClientProviderOutputError(
      `The provider's answer names a URL on a private or local address (${serverText(redactUrl(url), secret)}); it is not fetched. Set \`allowPrivateNetwork: true\` to allow it`,
    );
  };
}

/** JSON, or an event stream: text, whose progress only the text reader tells (a keep-alive is none). */
const isText = (type: string): boolean =>
  type === "application/json" || type.endsWith("+json") || type === "text/event-stream";

/** A 2xx answer: JSON when the server says so or sends an event stream (it must parse), else a Blob of its type. */
export async function readAnswer(call: Call, { res, origin, release }: Reply): Promise<unknown> {
  try {
    if (!isText(mediaType(res))) return await readBlob(call, res);
    const text = await readText(call, res);
    try {
      const parsed: unknown = JSON.parse(text);
      return parsed;
    } catch (error) {
      throw new MalformedEventError(
        `The server's JSON answer does not parse: ${serverText(text, origin.secret)}`,
        text,
        error,
        origin.secret,
      );
    }
  } finally {
    release();
  }
}

/** A poll or a file GET is tried again at most this often (and never more than the call's `maxRetries`). */
const GET_RETRIES = 2;

/**
 * `get` again after a 5xx, a 429 or a lost connection (a GET is idempotent), `again` times at most: 0.5 s,
 * then 1 s later, or after the server's `retry-after` when it asks for at most 10 s; within the call's deadline.
 */
async function idempotent<T>(call: Call, again: number, get: () => Promise<T>): Promise<T> {
  for (let attempt = 0; ; attempt++) {
    try {
      return await get();
    } catch (error) {
      if (
        attempt >= again ||
        !(error instanceof ServerError || error instanceof RateLimitError || error instanceof ConnectionError)
      )
        throw error;
      const asked = error instanceof HttpError ? error.retryAfterMs : undefined;
      await call.sleep(asked !== undefined && asked <= 10_000 ? asked : 500 * 2 ** attempt);
    }
  }
}

/**
 * GETs what a provider's answer names (http(s) only): a route of the provider through the router with `headers`
 * (the call's), or a file without them (the token never leaves for it); a failed answer is a typed error.
 */
async function getOnce(
  call: Call,
  conn: Connection,
  url: string,
  headers: Record<string, string>,
): Promise<{ res: Response; release: () => void }> {
  if (!/^https?:\/\//i.test(url))
    throw new MalformedEventError(
      `The provider's answer names a URL that is not http(s): ${serverText(url, call.secret)}`,
      url,
      undefined,
      call.secret,
    );
  const { res, release } = await fetchUnder(call, conn, url, { method: "GET", headers });
  if (!res.ok) {
    const body = parseMaybeJson(await readText(call, res, false).finally(release));
    throw toHttpError({
      status: res.status,
      body,
      url,
      method: "GET",
      requestId: requestIdOf(res, call.secret),
      secret: call.secret,
    });
  }
  return { res, release };
}

/** A route of the provider, its JSON answer. */
async function getJson(call: Call, conn: Connection, url: string): Promise<unknown> {
  const { res, release } = await getOnce(call, conn, url, conn.headers);
  return readAnswer(call, { res, origin: { url: redactUrl(url), secret: call.secret }, release });
}

/** A file, as a Blob. */
async function getFile(call: Call, conn: Connection, url: string): Promise<Blob> {
  const { res, release } = await getOnce(call, conn, url, {});
  return readBlob(call, res).finally(release);
}
