/** Which backend answers which route: TGI, transformers, or an OpenAI-protocol server (vLLM, SGLang, llama.cpp). */
import type { Exchange } from "./exchange.js";
import { jsonResponse } from "./http.js";
import { isOpenAiServer } from "./openai/dialects.js";
import { openAiChat } from "./openai/chat.js";
import { openAiCompletions } from "./openai/completions.js";
import { openAiResponses } from "./openai/responses.js";
import { taskPipeline } from "./pipelines.js";
import type { ModelRoute } from "./requests.js";
import { tgiChat } from "./tgi/chat.js";
import { tgiCompletions } from "./tgi/completions.js";
import { tgiGenerate } from "./tgi/generate.js";
import { transformersChat, transformersPipeline } from "./transformers.js";

/** `viaRouter`: the router serves the Responses API for every model it routes, whatever serves it. */
export function dispatch(
  route: Exclude<ModelRoute, { kind: "info" }>,
  exchange: Exchange,
  viaRouter: boolean,
): Response {
  const { backend } = exchange.model;
  if (route.kind === "responses") {
    if (viaRouter || isOpenAiServer(backend)) return openAiResponses(exchange);
    // TGI has no such route (axum's empty 404); the pipeline's API answers its own 404.
    return backend === "transformers" ? jsonResponse(404, { error: "Not Found" }) : new Response(null, { status: 404 });
  }
  const task = route.kind === "pipeline" ? (route.task ?? exchange.model.task) : undefined;
  if (task !== undefined) return taskPipeline(exchange, task);
  // vLLM, SGLang and llama.cpp serve only the OpenAI routes here.
  if (isOpenAiServer(backend)) {
    if (route.kind === "chat") return openAiChat(exchange);
    return route.kind === "completions" ? openAiCompletions(exchange) : jsonResponse(404, { error: "Not Found" });
  }
  const transformers = backend === "transformers";
  switch (route.kind) {
    case "chat":
      return transformers ? transformersChat(exchange) : tgiChat(exchange);
    case "pipeline":
      return transformers ? transformersPipeline(exchange) : tgiGenerate(exchange, "compat");
    case "generate":
      return transformers
        ? jsonResponse(404, { error: "Not Found" })
        : tgiGenerate(exchange, route.stream ? "stream" : "generate");
    case "completions":
      return transformers ? jsonResponse(404, { error: "Not Found" }) : tgiCompletions(exchange);
  }
}
