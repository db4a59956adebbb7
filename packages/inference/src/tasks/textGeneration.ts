import { MalformedEventError } from "../errors";
import { toHttpError } from "../errorTable";
import { generateParameters, validateGenerateInput } from "../params";
import { generationRoute } from "../router";
import { originOf, parseMaybeJson, readText, sendOnce } from "../transport/request";
import { withRetries } from "../transport/retry";
import type { StreamOrigin } from "../transport/sse";
import type { Options, TextGenerationArgs, TextGenerationOutput } from "../types";
import { checkArgs, type Prepared, prepareCall, routeOptions } from "./prepare";

/** Validates, routes and shapes a `generate` call (TGI's `/` and the pipeline share the URL). */
export function prepareGeneration(args: TextGenerationArgs, options: Options, stream: boolean): Prepared<TextGenerationArgs> {
  checkArgs(args, options);
  validateGenerateInput(args);
  const route = generationRoute(routeOptions(args, options));
  const parameters = generateParameters(args.parameters);
  const body = { inputs: args.inputs, ...(parameters ? { parameters } : {}), ...(stream ? { stream: true } : {}) };
  return prepareCall(args, options, route, body);
}

/** Text continued by the model: TGI's `generate`, or the transformers pipeline. */
export async function textGeneration(args: TextGenerationArgs, options: Options = {}): Promise<TextGenerationOutput> {
  const p = prepareGeneration(args, options, false);
  try {
    return await withRetries(p.call, p.policy, async (extra) => {
      const res = await sendOnce(p.call, p.spec, extra);
      return readGenerationOutput(p, res);
    });
  } finally {
    p.call.finish();
  }
}

/** `[{generated_text, details?}]` (or one object) as its first element; an error JSON is mapped. */
export async function readGenerationOutput(p: Prepared<TextGenerationArgs>, res: Response): Promise<TextGenerationOutput> {
  const text = await readText(p.call, res);
  return toGenerationOutput(parseMaybeJson(text), text, originOf(p.call, p.spec.url, res));
}

/** `[{generated_text, details?}]` (or one object) as its first element; an error JSON is mapped, anything else quoted. */
export function toGenerationOutput(body: unknown, text: string, origin: StreamOrigin): TextGenerationOutput {
  const first = (Array.isArray(body) ? body[0] : body) as Record<string, unknown> | null | undefined;
  if (typeof first === "object" && first !== null) {
    if (typeof first.generated_text === "string") return first as TextGenerationOutput;
    if (first.error != null) throw toHttpError({ status: 200, body: first, inStream: true, ...origin });
  }
  throw new MalformedEventError(`Expected [{generated_text}], the server answered: ${text.slice(0, 200)}`, text, undefined, origin.secret);
}
