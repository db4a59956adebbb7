/** A text-generation call on hf-inference or an endpoint: its route (TGI's `/` and the pipeline share one URL) and its context. */
import { checkArgs } from "../checks/params";
import { validateGenerateInput } from "../checks/generation";
import { InputError } from "../core/errors";
import { sending } from "../core/sending";
import type { BaseArgs, Options, TextGenerationArgs } from "../types";
import type { GenerateContext } from "./chat";
import { type ChatRoute, checkProviderModel, routeFor } from "./routes";
import { taskOptions } from "./taskRoutes";

/**
 * Where `generate` goes on hf-inference, an endpoint or `baseUrl`: TGI's `/` and the pipeline share one URL.
 * (`textGeneration` on a third-party provider runs through the task core first; a stream there is refused.)
 */
export function generationRoute(args: BaseArgs, options: Options): ChatRoute {
  const o = taskOptions(args, options);
  checkProviderModel(args, o);
  if (!o.endpointUrl && !o.baseUrl && o.provider && o.provider !== "auto" && o.provider !== "hf-inference") {
    throw new InputError(
      `\`provider: "${o.provider}"\` does not stream text generation here: textGenerationStream runs on "hf-inference" and on endpoints; use textGeneration (one answer from the provider) or chatCompletionStream`,
      "provider",
    );
  }
  const chat = routeFor(
    o.endpointUrl !== undefined || o.baseUrl !== undefined ? o : { ...o, provider: "hf-inference" },
  );
  return { ...chat, url: chat.pipelineUrl };
}

/** Validates and routes a `generate` call (TGI's `/` and the pipeline share the URL). */
export function prepareGeneration(args: TextGenerationArgs, options: Options, stream: boolean): GenerateContext {
  checkArgs(args, options);
  validateGenerateInput(args);
  const route = generationRoute(args, options);
  return { task: "generate", stream, args, options, route, ...sending(args, options, route.model) };
}
