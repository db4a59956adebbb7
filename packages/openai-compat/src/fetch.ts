import { InputError, type Options } from "@hfkit/inference";
import { answerChat } from "./answer";
import { answerResponses } from "./responses";
import { errorResponse } from "./protocol";
import { adapterRoute, HF_ROUTER_HOST, onRouter, openAIRoute, routerBase } from "./target";

/** The options of `createHfFetch`: any InferenceClient option (except `signal`, taken from each request), and the inner `fetch`. */
export type HfFetchOptions = Omit<Options, "fetch" | "signal"> & {
  /** The fetch that reaches the network (default: the global one, looked up at call time). */
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  /**
   * Whether the client's `baseURL` is a dedicated endpoint (`{endpoint}/v1`, chat at
   * `{endpoint}/v1/chat/completions`, any `model`). `true`: always; `false`: never (an hf-inference base
   * with the model in the body); default: detected, an endpoint when the host is
   * `*.endpoints.huggingface.cloud`, the path has a segment `endpoints/{name}`, or the request's model
   * names no Hub model (absent, `""` or `"tgi"`). The `endpointUrl` option names one outright.
   */
  endpoint?: boolean;
};

/** Where an OpenAI-style chat URL goes, and the model the URL names: see {@link adapterRoute}. */
function routeOf(
  url: URL,
  prefix: string,
  model: unknown,
  options: HfFetchOptions,
): { route: Options; model?: string } {
  if (options.endpointUrl || options.baseUrl || options.provider) return { route: {} };
  const origin = url.host === HF_ROUTER_HOST ? routerBase(options.routerUrl) : url.origin;
  return adapterRoute(url, prefix, model, options.endpoint, origin);
}

/** A request passed through, a URL of the router's host moved onto the router's base (see `routerUrl`). */
function passThrough(
  input: RequestInfo | URL,
  init: RequestInit | undefined,
  url: URL,
  options: HfFetchOptions,
): Promise<Response> {
  const fetch = options.fetch ?? globalThis.fetch;
  if (url.host !== HF_ROUTER_HOST) return fetch(input as string, init);
  let moved: string;
  try {
    moved = onRouter(url, options.routerUrl);
  } catch (error) {
    return Promise.resolve(errorResponse(error));
  }
  return fetch(input instanceof Request ? (new Request(moved, input) as unknown as string) : moved, init);
}

/**
 * A `fetch` for `new OpenAI({ baseURL, apiKey, fetch })` and any fetch-based client: chat completions
 * (`POST …[/v1]/chat/completions[/]`) and the Responses API (`POST …[/v1]/responses[/]`) go through the hfkit core (routing, parameter mapping, retries,
 * timeouts, stream termination) and are answered as OpenAI answers; every other request passes through
 * untouched. The `baseURL` says where: a model URL `{base}/models/{id}/v1`, the HF router
 * `https://router.huggingface.co/v1`, a dedicated endpoint `{endpoint}/v1` (see `endpoint`), or an
 * hf-inference base `{base}/v1` with the model in the body. A URL of the router's host
 * (`https://router.huggingface.co/…`, passed-through requests included) goes to the `routerUrl` option, else to
 * `HF_INFERENCE_ENDPOINT` when set (the mock hub's URL: the same code runs offline), else to the router.
 */
export function createHfFetch(options: HfFetchOptions = {}): typeof fetch {
  const { fetch: inner, endpoint: _endpoint, ...coreOptions } = options;

  return async function hfFetch(input: RequestInfo | URL, init?: RequestInit): Promise<Response> {
    const request = input instanceof Request ? input : undefined;
    const url = new URL(request ? request.url : String(input));
    const method = (init?.method ?? request?.method ?? "GET").toUpperCase();
    const served = method === "POST" ? openAIRoute(url.pathname) : undefined;
    if (served === undefined) return passThrough(input, init, url, options);
    const { prefix } = served;
    const text =
      init?.body !== undefined && init.body !== null ? await new Response(init.body).text() : await request!.text();
    const headers = new Headers(init?.headers ?? request?.headers);
    const token = /^Bearer\s+(.+)$/i.exec(headers.get("authorization") ?? "")?.[1];
    let body: Record<string, unknown>;
    try {
      body = JSON.parse(text) as Record<string, unknown>;
    } catch {
      return errorResponse(new InputError("The request body is not valid JSON", "body"));
    }
    let routed: { route: Options; model?: string };
    try {
      routed = routeOf(url, prefix, (body as { model?: unknown } | null)?.model, options);
    } catch (error) {
      return errorResponse(error);
    }
    const { route, model } = routed;
    if (model && !options.endpointUrl && typeof body === "object" && body !== null) body.model = model;
    const answer = served.route === "chat" ? answerChat : answerResponses;
    return answer(
      { body, accessToken: token, signal: init?.signal ?? request?.signal },
      { ...coreOptions, ...route, ...(inner ? { fetch: inner } : {}) },
    );
  };
}
