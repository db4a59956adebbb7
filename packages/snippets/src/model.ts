import type { ModelData } from "./types";

/** Which snippets fit a model: Messages-API ones, plain text-generation ones, or none. */
export type ModelKind = "chat" | "text-generation";

const CHAT_PIPELINES = new Set(["text-generation", "image-text-to-text"]);
const GENERATION_PIPELINES = new Set(["text-generation", "text2text-generation"]);

function hasChatTemplate(model: ModelData): boolean {
  const template = model.config?.tokenizer_config?.chat_template;
  return Array.isArray(template) ? template.length > 0 : Boolean(template);
}

/** A `text-generation` / `image-text-to-text` model with a chat template or the `conversational` tag. */
export function isChatModel(model: ModelData): boolean {
  if (!CHAT_PIPELINES.has(model.pipeline_tag ?? "")) return false;
  return hasChatTemplate(model) || (model.tags ?? []).includes("conversational");
}

/** Which snippets a model gets: `"chat"`, `"text-generation"`, or undefined for none. */
export function modelKind(model: ModelData): ModelKind | undefined {
  if (isChatModel(model)) return "chat";
  return GENERATION_PIPELINES.has(model.pipeline_tag ?? "") ? "text-generation" : undefined;
}
