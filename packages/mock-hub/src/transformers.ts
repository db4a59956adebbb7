import type { Exchange } from "./exchange.js";
import { isRecord, jsonResponse, parseJson } from "./http.js";
import { runGeneration } from "./tokens.js";

/** The transformers pipeline behind the serverless API, for models TGI does not serve. */

const CONCAT_ERROR = 'can only concatenate str (not "dict") to str';

/** The API's error shape: a short `error` and the full text in `warnings`. */
function inferenceError(status: number, error: string, detail = error): Response {
  return jsonResponse(status, { error, warnings: [`There was an inference error: ${detail}`] });
}

/** A dict reaches the pipeline where it wants a string (the chat body, legacy conversational inputs). */
function unknownError(): Response {
  return inferenceError(500, "unknown error", `unknown error: ${CONCAT_ERROR}`);
}

/** `/v1/chat/completions` on a pipeline model: one of the three answers seen for real. */
export function transformersChat(exchange: Exchange): Response {
  switch (exchange.model.chatRouteError) {
    case "wrong-format": {
      const payload = pyRepr(parseJson(exchange.text) ?? exchange.text);
      return jsonResponse(400, {
        error: `\`args[0]\`: ${payload} have the wrong format. The should be either of type \`str\` or type \`list\``,
      });
    }
    case "not-found":
      return jsonResponse(404, { error: "Not Found" });
    default:
      return unknownError();
  }
}

/** `POST /models/{id}` with `{inputs, parameters}`: text or messages in, `[{generated_text}]` out. */
export function transformersPipeline(exchange: Exchange): Response {
  const { model } = exchange;
  const body = parseJson(exchange.text);
  if (!isRecord(body) || body.inputs === undefined) {
    return jsonResponse(400, { error: "Body needs to provide a inputs key" });
  }
  if (body.stream === true) {
    return jsonResponse(400, { error: ["Error in `stream`: `stream` is not supported for this model"] });
  }
  if (isRecord(body.inputs)) return unknownError();
  const parameters = isRecord(body.parameters) ? body.parameters : {};
  // The API drops null parameters before they reach `generate`.
  const unused = model.unusedModelKwargs.filter((name) => parameters[name] !== undefined && parameters[name] !== null);
  if (unused.length > 0) {
    const message = `The following \`model_kwargs\` are not used by the model: ${pyRepr(unused)} (note: typos in the generate arguments will also show up in this list)`;
    return inferenceError(400, message);
  }
  const generation = runGeneration(model.text, {
    maxNewTokens: typeof parameters.max_new_tokens === "number" ? parameters.max_new_tokens : undefined,
    stop: Array.isArray(parameters.stop) ? parameters.stop.filter((stop) => typeof stop === "string") : undefined,
  });
  const fullText = parameters.return_full_text !== false;
  return jsonResponse(200, [{ generated_text: pipelineOutput(body.inputs, generation.text, fullText) }]);
}

function pipelineOutput(inputs: unknown, text: string, fullText: boolean): unknown {
  if (!fullText) return text;
  if (Array.isArray(inputs)) return [...(inputs as unknown[]), { role: "assistant", content: text }];
  return `${String(inputs)}${text}`;
}

/** Python's `repr`, as the pipeline's error messages print values. */
export function pyRepr(value: unknown): string {
  if (typeof value === "string")
    return value.includes("'") && !value.includes('"') ? `"${value}"` : `'${value.replace(/'/g, "\\'")}'`;
  if (typeof value === "boolean") return value ? "True" : "False";
  if (value === null || value === undefined) return "None";
  if (Array.isArray(value)) return `[${value.map(pyRepr).join(", ")}]`;
  if (isRecord(value))
    return `{${Object.entries(value)
      .map(([key, item]) => `'${key}': ${pyRepr(item)}`)
      .join(", ")}}`;
  return String(value);
}
