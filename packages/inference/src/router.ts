import { InputError } from "./errors";

export const HF_ROUTER_URL = "https://router.huggingface.co";
export const HF_INFERENCE_BASE = `${HF_ROUTER_URL}/hf-inference`;

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

export interface RouteOptions {
  model?: string;
  endpointUrl?: string;
  baseUrl?: string;
  provider?: string;
}

const trimSlashes = (url: string): string => url.replace(/\/+$/, "");

function requireModel(model: string | undefined, where: string): string {
  if (typeof model !== "string" || model.trim() === "") {
    throw new InputError(`\`model\` must be a non-empty model id such as "org/name" (needed for ${where})`, "model");
  }
  return model;
}

/** The chat URL of a dedicated endpoint: `/v1/chat/completions` appended as needed. */
export function endpointChatUrl(endpointUrl: string): string {
  const base = trimSlashes(endpointUrl);
  if (base.endsWith("/chat/completions")) return base;
  if (base.endsWith("/v1")) return `${base}/chat/completions`;
  return `${base}/v1/chat/completions`;
}

/** endpoint > baseUrl / provider "hf-inference" > the HF router ("auto" and other providers). */
export function chatRoute(o: RouteOptions): ChatRoute {
  if (o.endpointUrl) {
    const model = o.model || "tgi";
    const url = endpointChatUrl(o.endpointUrl);
    const root = url.replace(/(\/v1)?\/chat\/completions$/, "");
    return { url, bodyModel: model, model, kind: "endpoint", pipelineUrl: root, key: `${root}|${model}` };
  }
  if (o.baseUrl || o.provider === "hf-inference") {
    const model = requireModel(o.model, "an hf-inference route");
    const base = trimSlashes(o.baseUrl || HF_INFERENCE_BASE);
    const pipelineUrl = `${base}/models/${model}`;
    return { url: `${pipelineUrl}/v1/chat/completions`, bodyModel: model, model, kind: "hf-inference", pipelineUrl, key: `${base}|${model}` };
  }
  const model = requireModel(o.model, "the Hugging Face router");
  const provider = o.provider && o.provider !== "auto" && !model.includes(":") ? `:${o.provider}` : "";
  const url = `${HF_ROUTER_URL}/v1/chat/completions`;
  return { url, bodyModel: model + provider, model, kind: "router", pipelineUrl: url, key: "" };
}

/** Where `textGeneration` goes: TGI's `/` (generate) and the pipeline share one URL. */
export function generationRoute(o: RouteOptions): ChatRoute {
  if (!o.endpointUrl && !o.baseUrl && o.provider && o.provider !== "auto" && o.provider !== "hf-inference") {
    throw new InputError(
      `\`provider: "${o.provider}"\` serves chat only here: use chatCompletion, or "hf-inference" or an endpoint for textGeneration`,
      "provider",
    );
  }
  const chat = chatRoute(o.endpointUrl || o.baseUrl ? o : { ...o, provider: "hf-inference" });
  return { ...chat, url: chat.pipelineUrl };
}
