/**
 * What the client reads from the environment, where the runtime has one (Node, Deno, Bun; never in a
 * browser), at call time: the token, the Hub's and the router's URLs, and the debug switch. A runtime that refuses to let us read it
 * (Deno without --allow-env) is taken as an empty environment.
 */
import { InputError } from "./errors";
import { isBrowser } from "./request";
import type { Logger } from "../types";

function env(name: string): string | undefined {
  if (isBrowser) return undefined;
  try {
    return (globalThis as { process?: { env?: Record<string, string | undefined> } }).process?.env?.[name];
  } catch {
    return undefined;
  }
}

/** A variable of the environment, blank as unset. */
export const envValue = (name: string): string | undefined => env(name)?.trim() || undefined;

/**
 * `HF_TOKEN`, else `HUGGING_FACE_HUB_TOKEN`, as `huggingface_hub` reads them (blank as unset); a malformed one is an
 * InputError that does not echo it.
 */
export function envToken(): string | undefined {
  const token = envValue("HF_TOKEN") ?? envValue("HUGGING_FACE_HUB_TOKEN");
  if (token === undefined || !/[^!-~]/.test(token)) return token;
  throw new InputError("`HF_TOKEN` must be printable ASCII without white space", "HF_TOKEN");
}

/** A token as given: a blank one (`""`, white space) is no token, never a key. */
export const givenToken = (token: string | undefined): string | undefined => (token?.trim() ? token : undefined);

/**
 * The one place a call's token is decided: the one given, else (none given) the environment's. A blank one given
 * is no token, and keeps the environment's away from the server.
 */
export const callToken = (token: string | undefined): string | undefined =>
  token === undefined ? envToken() : givenToken(token);

/**
 * The debug log, when `HFKIT_LOG=debug` (or `DEBUG` names `hfkit`, as the `debug` package reads it):
 * to the logger's `debug`, else to stderr.
 */
export function debugLog(logger: Logger): ((line: string) => void) | undefined {
  const on = env("HFKIT_LOG")?.toLowerCase() === "debug" || /(^|[\s,])hfkit(\*|:|[\s,]|$)/.test(env("DEBUG") ?? "");
  if (!on) return undefined;
  const write = logger.debug ? logger.debug.bind(logger) : console.error.bind(console);
  return (line) => write(`hfkit ${line}`);
}
