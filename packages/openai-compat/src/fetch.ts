import { InputError, type Options } from "@hfkit/inference";
import { answerChat } from "./answer";
import { errorResponse } from "./protocol";

/** The options of `createHfFetch`: any InferenceClient option (except `signal`, taken from each request), and the inner `fetch`. */
export type HfFetchOptions = Omit<Options, "fetch" | "signal"> & {
  /** The fetch that reaches the network (default: the global one, looked up at call time). */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
};

const HF_ROUTER_HOST = "router.huggingface.co";

/**
 * Where an OpenAI-style chat URL goes: a model URL (`{base}/models/{id}/v1/chat/completions`), the HF
 * router, or a base with the model in the body (`{base}/v1/chat/completions`).
 */
export function routeOf(url: URL, options: HfFetchOptions): Options {
  if (options.endpointUrl || options.baseUrl || options.provider) return {};
  const m = /^(.*)\/models\/(.+?)\/v1\/chat\/completions$/.exec(url.pathname);
  if (m) return { baseUrl: `${url.origin}${m[1]}` };
  if (url.host === HF_ROUTER_HOST && url.pathname === "/v1/chat/completions") return { provider: "auto" };
  return { baseUrl: `${url.origin}${url.pathname.replace(/\/v1\/chat\/completions$/, "")}` };
}

function modelFromUrl(url: URL): string | undefined {
  return /\/models\/(.+?)\/v1\/chat\/completions$/.exec(url.pathname)?.[1];
}

/**
 * A `fetch` for `new OpenAI({ baseURL, apiKey, fetch })` and any fetch-based client: chat completions go
 * through the hfkit core (routing, parameter mapping, retries, timeouts, stream termination); every
 * other request passes through untouched.
 */
export function createHfFetch(options: HfFetchOptions = {}): typeof fetch {
  const { fetch: inner, ...coreOptions } = options;
  const passThrough = (input: RequestInfo | URL, init?: RequestInit): Promise<Response> =>
    (inner ?? globalThis.fetch)(input as string, init);

  return async function hfFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input));
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    if (method !== "POST" || !url.pathname.endsWith("/chat/completions")) return passThrough(input, init);
    const text = init?.body !== undefined && init.body !== null ? await new Response(init.body).text() : await request!.text();
    const headers = new Headers(init?.headers ?? request?.headers);
    const token = /^Bearer\s+(.+)$/i.exec(headers.get("authorization") ?? "")?.[1];
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return errorResponse(new InputError("The request body is not valid JSON", "body"));
    }
    const model = modelFromUrl(url);
    if (model && !options.endpointUrl) body.model = model;
    return answerChat(
      { body, accessToken: token, signal: init?.signal ?? request?.signal },
      { ...coreOptions, ...routeOf(url, options), ...(inner ? { fetch: inner } : {}) },
    );
  } as typeof fetch;
}
