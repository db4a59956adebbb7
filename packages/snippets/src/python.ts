import { chatArgs, generationArgs } from "./chatArgs";
import { type LiteralObject, pyCall } from "./literals";
import type { ModelKind } from "./model";
import type { SnippetRequest } from "./request";
import { modelUrl, openAiBaseUrl } from "./target";

const STREAM_LOOP = `for chunk in stream:
    if chunk.choices:
        print(chunk.choices[0].delta.content or "", end="", flush=True)
`;

function chatCall(call: string, args: LiteralObject, streaming: boolean): string {
  const kwargs = Object.entries({ ...args, ...(streaming ? { stream: true } : {}) });
  if (streaming) return `stream = ${pyCall(call, kwargs)}\n\n${STREAM_LOOP}`;
  return `completion = ${pyCall(call, kwargs)}\n\nprint(completion.choices[0].message.content)\n`;
}

/** The router by model id; a base or an endpoint by URL (`base_url`), the model then only named in the payload. */
function hubClient(req: SnippetRequest, kind: ModelKind): string {
  const url = req.target.kind === "router" ? undefined : modelUrl(req.target, req.model);
  const provider = !url && kind === "text-generation" ? "hf-inference" : undefined;
  return `client = ${pyCall("InferenceClient", [
    ["provider", provider],
    ["base_url", url],
    ["api_key", req.token],
  ])}`;
}

/** `huggingface_hub`'s `InferenceClient`: `chat_completion(..., stream=True)`, or `text_generation`. */
export function huggingfaceHubSnippet(req: SnippetRequest, kind: ModelKind): string {
  const head = `# pip install huggingface_hub\nfrom huggingface_hub import InferenceClient\n\n${hubClient(req, kind)}\n\n`;
  if (kind === "chat") return head + chatCall("client.chat_completion", chatArgs(req), req.streaming);
  const { inputs, parameters } = generationArgs(req);
  // With `base_url` the URL is the model: a `model=` argument would replace it.
  const model = req.target.kind === "router" ? req.model : undefined;
  const call = pyCall("client.text_generation", [[null, inputs], ["model", model], ...Object.entries(parameters)]);
  return `${head}output = ${call}\n\nprint(output)\n`;
}

/** The `openai` package pointed at the router, the base's model route or the endpoint. */
export function openaiPythonSnippet(req: SnippetRequest): string {
  const client = pyCall("OpenAI", [
    ["base_url", openAiBaseUrl(req.target, req.model)],
    ["api_key", req.token],
  ]);
  const head = `# pip install openai\nfrom openai import OpenAI\n\nclient = ${client}\n\n`;
  return head + chatCall("client.chat.completions.create", chatArgs(req), req.streaming);
}
