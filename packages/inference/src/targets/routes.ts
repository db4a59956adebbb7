import { envValue, givenToken } from "../core/environment";
import { InputError } from "../core/errors";
import { redactText, redactUrl } from "../core/redact";
import type { BaseArgs, Options } from "../types";

export const HF_ROUTER_URL = "https://router.huggingface.co";

/** Where a chat call goes, and what serves it. */
export interface ChatRoute {
  url: string;
  /** The `model` to put in the body. */
  bodyModel: string;
  /** The model id, for messages and caches ("tgi" on an endpoint without a model). */
  model: string;
  /** OpenAI-protocol routes (the HF router) need no backend detection. */
  kind: "endpoint" | "hf-inference" | "router";
  /** Where the transformers pipeline answers (`{base}/models/{id}`, or the endpoint's root). */
  pipelineUrl: string;
  /** What the backend memory is keyed by: (endpoint or base, model). */
  key: string;
}

/** What decides a route: the call's arguments over the client's options. */
export interface RouteOptions {
  model?: string;
  endpointUrl?: string;
  baseUrl?: string;
  provider?: string;
  routerUrl?: string;
}

/** The route options of a call: its own `endpointUrl` and `provider` over the client's (a chat's are checked before: `oneTarget`). */
export function routeOptions(args: BaseArgs, options: Options): RouteOptions {
  return {
    model: args.model,
    endpointUrl: args.endpointUrl ?? options.endpointUrl,
    baseUrl: options.baseUrl,
    provider: args.provider ?? options.provider,
    routerUrl: options.routerUrl,
  };
}

export const trimSlashes = (url: string): string => url.replace(/\/+$/, "");

/** A base URL from the environment, checked as the option it stands for would be. */
export function envUrl(name: "HF_ENDPOINT" | "HF_INFERENCE_ENDPOINT"): string | undefined {
  const value = envValue(name);
  return value === undefined ? undefined : trimSlashes(checkBaseUrl(value, name));
}

/**
 * The HF router's base: the `routerUrl` option, else `HF_INFERENCE_ENDPOINT` from the environment (a mock hub's, to
 * run offline), else the real one.
 */
export const routerBase = (routerUrl: string | undefined): string =>
  routerUrl === undefined
    ? (envUrl("HF_INFERENCE_ENDPOINT") ?? HF_ROUTER_URL)
    : trimSlashes(checkBaseUrl(routerUrl, "routerUrl"));

export const routerOf = (o: RouteOptions): string => routerBase(o.routerUrl);

export function requireModel(model: string | undefined, where: string): string {
  if (typeof model !== "string" || model.trim() === "") {
    throw new InputError(`\`model\` must be a non-empty model id such as "org/name" (needed for ${where})`, "model");
  }
  return model;
}

/** Characters that would end or re-route a URL path, and controls (C0 and DEL). */
// eslint-disable-next-line no-control-regex -- the controls are what it finds
const UNSAFE_IN_SEGMENT = /[?#\\\x00-\x1f\x7f]/;

/**
 * A model id as URL path segments: `org/name` keeps its one slash, each segment percent-encoded
 * (`%2e%2e` stays a name, never a `..`); `..`, `.`, empty segments, `?`, `#`, `\\` and controls
 * are an InputError, so no id can reach another route.
 */
export function modelPath(model: string): string {
  const segments = model.split("/");
  const bad =
    segments.length > 2 || segments.some((x) => x === "" || x === "." || x === ".." || UNSAFE_IN_SEGMENT.test(x));
  if (bad) {
    throw new InputError(
      `\`model\` must be a model id "name" or "org/name" without \`..\`, \`?\`, \`#\`, \`\\\`, control characters or empty parts (got ${JSON.stringify(model).slice(0, 120)})`,
      "model",
    );
  }
  return segments.map(encodeURIComponent).join("/");
}

/**
 * A base URL option, checked before any request: absolute, http or https, no `user:password@`
 * (a credential there would be quoted by every fetch error; the token goes in `accessToken`).
 */
export function checkBaseUrl(
  value: unknown,
  field: "endpointUrl" | "baseUrl" | "hubUrl" | "routerUrl" | "HF_ENDPOINT" | "HF_INFERENCE_ENDPOINT",
): string {
  let why = "be an absolute http:// or https:// URL";
  if (typeof value === "string") {
    try {
      const url = new URL(value);
      if (url.protocol === "http:" || url.protocol === "https:") {
        if (!url.username && !url.password) return value;
        why = "not carry `user:password@`: pass the token as `accessToken`";
      }
    } catch {
      // not a URL: said below
    }
  }
  const shown = typeof value === "string" ? JSON.stringify(redactText(redactUrl(value)).slice(0, 120)) : String(value);
  throw new InputError(`\`${field}\` must ${why} (got ${shown})`, field);
}

/**
 * The checks `@huggingface/inference` makes of a model and a provider, in its words where code may match
 * them. The call's own `provider` with an endpoint is refused; a client's default provider yields to a call's endpoint.
 */
export function checkProviderModel(args: BaseArgs, o: RouteOptions): void {
  const { model, provider } = o;
  if (o.endpointUrl !== undefined && args.provider && args.provider !== "hf-inference" && args.provider !== "auto") {
    throw new InputError(
      `Cannot use endpointUrl with a third-party provider (\`provider: ${JSON.stringify(provider)}\`): drop one of them`,
      "provider",
    );
  }
  if (typeof model === "string" && /^https?:\/\//i.test(model)) {
    throw new InputError(
      'Model URLs are no longer supported. Use endpointUrl instead (`model` is a model id such as "org/name")',
      "model",
    );
  }
  if (provider === "openai" && typeof model === "string" && !model.startsWith("openai/")) {
    throw new InputError(
      `Models from openai must be prefixed by "openai/". Got ${JSON.stringify(model).slice(0, 120)}.`,
      "model",
    );
  }
}

/** The chat URL of a dedicated endpoint: `/v1/chat/completions` appended as needed. */
export function endpointChatUrl(endpointUrl: string): string {
  const base = trimSlashes(endpointUrl);
  if (base.endsWith("/chat/completions")) return base;
  if (base.endsWith("/v1")) return `${base}/chat/completions`;
  return `${base}/v1/chat/completions`;
}

/** endpoint > baseUrl / provider "hf-inference" > the HF router ("auto" and other providers). */
export function chatRoute(args: BaseArgs, options: Options): ChatRoute {
  const o = routeOptions(args, options);
  checkProviderModel(args, o);
  const route = routeFor(o);
  const { provider } = o;
  const token = givenToken(args.accessToken);
  const hf = token?.startsWith("hf_");
  if (
    route.kind !== "router" ||
    provider === undefined ||
    provider === "auto" ||
    (hf && provider !== "openai") ||
    (token === undefined && provider !== "openai")
  )
    return route;
  // As 4.13: openai takes its own key only, sent to its own API; the router takes an HF token only.
  if (provider !== "openai")
    throw new InputError(
      `The HF router takes an hf_ token, not ${provider}'s key: set it in your HF settings, or send it with endpointUrl`,
      "accessToken",
    );
  if (!token || hf)
    throw new InputError("Provider openai is closed-source and does not support HF tokens.", "accessToken");
  return { ...route, url: "https://api.openai.com/v1/chat/completions", bodyModel: route.model.slice(7) };
}

export function routeFor(o: RouteOptions): ChatRoute {
  if (o.endpointUrl !== undefined) {
    const model = o.model || "tgi";
    const url = endpointChatUrl(checkBaseUrl(o.endpointUrl, "endpointUrl"));
    const root = url.replace(/(\/v1)?\/chat\/completions$/, "");
    return { url, bodyModel: model, model, kind: "endpoint", pipelineUrl: root, key: `${root}|${model}` };
  }
  if (o.baseUrl !== undefined || o.provider === "hf-inference") {
    const model = requireModel(o.model, "an hf-inference route");
    const base = trimSlashes(
      o.baseUrl === undefined ? `${routerOf(o)}/hf-inference` : checkBaseUrl(o.baseUrl, "baseUrl"),
    );
    const pipelineUrl = `${base}/models/${modelPath(model)}`;
    return {
      url: `${pipelineUrl}/v1/chat/completions`,
      bodyModel: model,
      model,
      kind: "hf-inference",
      pipelineUrl,
      key: `${base}|${model}`,
    };
  }
  const model = requireModel(o.model, "the Hugging Face router");
  modelPath(model.split(":")[0] ?? model);
  const provider = o.provider && o.provider !== "auto" && !model.includes(":") ? `:${o.provider}` : "";
  const url = `${routerOf(o)}/v1/chat/completions`;
  return { url, bodyModel: model + provider, model, kind: "router", pipelineUrl: url, key: "" };
}
