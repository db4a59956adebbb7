import { chatArgs, generationArgs } from "./chatArgs";
import { shellWord } from "./literals";
import type { ModelKind } from "./model";
import type { SnippetRequest } from "./request";
import { chatCompletionsUrl, modelUrl } from "./target";

/** `/v1/chat/completions` with `"stream": false`, or the generate route with `{"inputs": …}`. */
export function curlSnippet(req: SnippetRequest, kind: ModelKind): string {
  const chat = kind === "chat";
  const url = chat ? chatCompletionsUrl(req.target, req.model) : modelUrl(req.target, req.model);
  const body = chat ? { ...chatArgs(req), stream: false } : generationArgs(req);
  const json = JSON.stringify(body, null, 4).replace(/\n/g, "\n    ");
  return (
    [
      `curl ${shellWord(url)}`,
      `    -H ${shellWord(`Authorization: Bearer ${req.token}`)}`,
      `    -H 'Content-Type: application/json'`,
      `    -d ${shellWord(json)}`,
    ].join(" \\\n") + "\n"
  );
}
