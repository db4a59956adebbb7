import { chatArgs, generationArgs } from "./chatArgs";
import { jsLiteral, type LiteralObject } from "./literals";
import type { ModelKind } from "./model";
import type { SnippetRequest } from "./request";
import { openAiBaseUrl } from "./target";

const STREAM_LOOP = `for await (const chunk of stream) {
  process.stdout.write(chunk.choices[0]?.delta?.content ?? "");
}
`;

/** `const stream = …` and the loop writing each delta, or one awaited call and the message printed. */
function chatCall(streamCall: string, call: string, args: LiteralObject, streaming: boolean): string {
  if (streaming) return `const stream = ${streamCall}(${jsLiteral(args)});\n\n${STREAM_LOOP}`;
  return `const chatCompletion = await ${call}(${jsLiteral(args)});\n\nconsole.log(chatCompletion.choices[0].message.content);\n`;
}

function hfkitClient(req: SnippetRequest): string {
  const { target } = req;
  const options =
    target.kind === "endpoint"
      ? { endpointUrl: target.url }
      : target.kind === "base"
        ? { baseUrl: target.url }
        : undefined;
  return `const client = new InferenceClient(${JSON.stringify(req.token)}${options ? `, ${jsLiteral(options)}` : ""});`;
}

/** `@hfkit/inference`: `chatCompletionStream` / `chatCompletion`, or `textGeneration`. */
export function hfkitSnippet(req: SnippetRequest, kind: ModelKind): string {
  const head = `// npm i @hfkit/inference\nimport { InferenceClient } from "@hfkit/inference";\n\n${hfkitClient(req)}\n\n`;
  if (kind === "text-generation") {
    const args = { model: req.model, ...generationArgs(req) };
    return `${head}const output = await client.textGeneration(${jsLiteral(args)});\n\nconsole.log(output.generated_text);\n`;
  }
  return head + chatCall("client.chatCompletionStream", "client.chatCompletion", chatArgs(req), req.streaming);
}

/** The `openai` package pointed at the router, the base's model route or the endpoint. */
export function openaiJsSnippet(req: SnippetRequest): string {
  const client = jsLiteral({ baseURL: openAiBaseUrl(req.target, req.model), apiKey: req.token });
  const args = { ...chatArgs(req), ...(req.streaming ? { stream: true } : {}) };
  const head = `// npm i openai\nimport OpenAI from "openai";\n\nconst client = new OpenAI(${client});\n\n`;
  const call = "client.chat.completions.create";
  return head + chatCall(`await ${call}`, call, args, req.streaming);
}
