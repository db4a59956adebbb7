/** Where the generated code sends its requests, and the URL each client needs for that. */

export const ROUTER_URL = "https://router.huggingface.co";
export const HF_INFERENCE_URL = `${ROUTER_URL}/hf-inference`;

export type Target =
  /** The HF router: OpenAI's protocol at `/v1`, model in the body. */
  | { kind: "router" }
  /** An hf-inference-style base: `{url}/models/{id}`. */
  | { kind: "base"; url: string }
  /** A dedicated endpoint: `{url}/v1/chat/completions`, text generation at its root. */
  | { kind: "endpoint"; url: string };

const trimSlashes = (url: string): string => url.replace(/\/+$/, "");

/** The endpoint wins over the base, as in `@hfkit/inference`. */
export function targetOf(options: { baseUrl?: string; endpointUrl?: string }): Target {
  if (options.endpointUrl) return { kind: "endpoint", url: trimSlashes(options.endpointUrl) };
  if (options.baseUrl) return { kind: "base", url: trimSlashes(options.baseUrl) };
  return { kind: "router" };
}

/** The endpoint without a trailing `/v1` or `/v1/chat/completions`. */
function endpointRoot(url: string): string {
  return url.replace(/\/chat\/completions$/, "").replace(/\/v1$/, "");
}

/** `{…}/models/{id}`: TGI's generate route, also the root the chat route hangs from. */
export function modelUrl(target: Target, model: string): string {
  if (target.kind === "endpoint") return endpointRoot(target.url);
  return `${target.kind === "base" ? target.url : HF_INFERENCE_URL}/models/${model}`;
}

/** The `baseURL` of an OpenAI client (`…/v1`). */
export function openAiBaseUrl(target: Target, model: string): string {
  return target.kind === "router" ? `${ROUTER_URL}/v1` : `${modelUrl(target, model)}/v1`;
}

/** The full chat completions URL. */
export function chatCompletionsUrl(target: Target, model: string): string {
  return `${openAiBaseUrl(target, model)}/chat/completions`;
}
