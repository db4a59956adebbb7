import { curlSnippet } from "./curl";
import { hfkitSnippet, openaiJsSnippet } from "./js";
import { modelKind } from "./model";
import { huggingfaceHubSnippet, openaiPythonSnippet } from "./python";
import { toRequest } from "./request";
import type { ModelData, Snippet, SnippetOptions } from "./types";

/**
 * Ready-to-run code for a model: for a chat model, JS (`@hfkit/inference`, `openai`), Python
 * (`huggingface_hub`, `openai`) and cURL on the Messages API; for another text-generation model,
 * `textGeneration` / `text_generation` / `{"inputs": …}`. Any other model: `[]`.
 */
export function getSnippets(model: ModelData, options: SnippetOptions = {}): Snippet[] {
  const req = toRequest(model, options);
  const kind = modelKind(model);
  if (!kind) return [];
  const snippets: Snippet[] = [{ language: "js", client: "hfkit", content: hfkitSnippet(req, kind) }];
  if (kind === "chat") snippets.push({ language: "js", client: "openai", content: openaiJsSnippet(req) });
  snippets.push({ language: "python", client: "huggingface_hub", content: huggingfaceHubSnippet(req, kind) });
  if (kind === "chat") snippets.push({ language: "python", client: "openai", content: openaiPythonSnippet(req) });
  snippets.push({ language: "sh", client: "curl", content: curlSnippet(req, kind) });
  return snippets;
}
