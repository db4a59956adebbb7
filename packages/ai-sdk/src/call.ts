/** What every model's call shares: the SDK's options (signal, headers), the answer's headers and URL, the route's URL. */
import type { Options } from "@hfkit/inference";
import type { BaseCallOptions } from "./spec/types";

/** One call's options for `@hfkit/inference`, and what its answer said (headers, URL) once it came. */
export interface CallContext {
  options: Options;
  /** The headers of the last successful answer. */
  headers: Record<string, string>;
  /** The URL that answered last, else where the call was going. */
  url: () => string;
}

/** Builds a call's context: the AI SDK's `abortSignal` and `headers` over the settings, a recorder of answers. */
export function callContext(settings: Options, call: BaseCallOptions, target: () => string): CallContext {
  const headers: Record<string, string> = {};
  let lastUrl: string | undefined;
  const extra = Object.fromEntries(
    Object.entries(call.headers ?? {}).filter((e): e is [string, string] => e[1] !== undefined),
  );
  const options: Options = {
    ...settings,
    headers: { ...settings.headers, ...extra },
    signal: call.abortSignal,
    onResponse: (info) => {
      lastUrl = info.url;
      if (info.status < 300) info.headers.forEach((value, key) => (headers[key] = value));
      settings.onResponse?.(info);
    },
  };
  return { options, headers, url: () => lastUrl ?? target() };
}

/**
 * Where a call goes before any answer says so (for errors raised before one, such as timeouts): the
 * endpoint, the hf-inference-style base with `path`, else the router's `routerUrl`.
 */
export function targetUrl(settings: Options, modelId: string, path: string, routerUrl: string): string {
  if (settings.endpointUrl !== undefined) return settings.endpointUrl;
  if (settings.baseUrl !== undefined || settings.provider === "hf-inference") {
    const base = (settings.baseUrl ?? "https://router.huggingface.co/hf-inference").replace(/\/+$/, "");
    return `${base}/models/${modelId}${path}`;
  }
  return routerUrl;
}

/** `providerOptions.hfkit.extraBody` of a call, when it is an object. */
export function extraBodyOf(call: BaseCallOptions): Record<string, unknown> {
  const extra = call.providerOptions?.hfkit?.extraBody;
  return typeof extra === "object" && extra !== null ? (extra as Record<string, unknown>) : {};
}
