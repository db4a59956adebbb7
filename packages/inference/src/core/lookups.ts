/**
 * Lookups shared by many calls (the Hub's mapping, the router's catalog): remembered per credential, one at a
 * time per key, each on a clock of its own. A file apart from `memory.ts`, so that an app that only chats
 * (whose endpoint detection uses the plain memory) carries none of it.
 */
import { Call } from "./call";
import { BoundedMemory } from "./memory";

/**
 * `key` for one credential: what a call learns with one token (a mapping, a 401) is never another token's answer.
 * The token is kept as a 64-bit hash, not as itself.
 */
export function perCredential(key: string, secret: string | undefined): string {
  if (!secret) return key;
  let h1 = 0xdeadbeef;
  let h2 = 0x41c6ce57;
  for (let i = 0; i < secret.length; i++) {
    const c = secret.charCodeAt(i);
    h1 = Math.imul(h1 ^ c, 2654435761);
    h2 = Math.imul(h2 ^ c, 1597334677);
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909);
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909);
  return `${key}|${(h2 >>> 0).toString(36)}${(h1 >>> 0).toString(36)}`;
}

/** A memory filled by lookups: one lookup at a time per key, shared by whoever asks meanwhile; a failed one is not kept. */
export class LookupMemory<V> extends BoundedMemory<V> {
  /** The lookups in flight, by key. */
  readonly lookups = new Map<string, Promise<V>>();

  /** What `key` is remembered as (unless `fresh`), else the lookup in flight for it; undefined when neither. */
  known(key: string, fresh?: boolean): Promise<V> | undefined {
    const value = fresh ? undefined : this.get(key);
    return value === undefined ? this.lookups.get(key) : Promise.resolve(value);
  }

  /** Shares `lookup` with whoever asks for `key` until it settles; what it finds is remembered, a failure is not. */
  track(key: string, lookup: Promise<V>): Promise<V> {
    const started = lookup.then((value) => (this.set(key, value), value));
    this.lookups.set(key, started);
    const forget = (): void => void (this.lookups.get(key) === started && this.lookups.delete(key));
    started.then(forget, forget);
    return started;
  }
}

/** How long a lookup shared by many calls (the Hub's mapping, the router's catalog) may take, whoever waits for it. */
export const LOOKUP_TIMEOUT_MS = 30_000;

/** The clock of such a lookup, its own: a waiting call that gives up does not end it for the others. */
export const lookupCall = (secret: string | undefined): Call =>
  new Call(
    { timeout: LOOKUP_TIMEOUT_MS, firstChunkTimeout: Infinity, idleTimeout: LOOKUP_TIMEOUT_MS, stallTimeout: Infinity },
    secret,
  );
