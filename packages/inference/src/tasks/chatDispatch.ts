import { backendMemory } from "../backends/memory";
import { greedyByTopP, refusedZeroTemperature, ZERO_TEMPERATURE } from "../backends/tgi";
import { checkPipelineSupport, pipelineBody, pipelineOutput, unusedModelKwargs } from "../backends/transformers";
import { HttpError } from "../errors";
import { readErrorFields } from "../errorTable";
import { parseMaybeJson, readText, sendOnce, serialize } from "../transport/request";
import type { ChatCompletionOutput } from "../types";
import { warnOnce } from "../warnOnce";
import type { Prepared } from "./prepare";

/** A TGI or OpenAI-protocol answer (body unread), or the pipeline's answer already as a chat output. */
export type ChatAnswer = { res: Response; output?: undefined } | { output: ChatCompletionOutput; res?: undefined };

/**
 * Sends a chat call to whichever framework serves the model: the caller's `backend` > what was
 * learnt > one detection (TGI's chat route first, the pipeline only on a "not TGI" answer).
 */
export async function sendChat(p: Prepared, extra: Record<string, string> | undefined): Promise<ChatAnswer> {
  if (p.route.kind === "router") return { res: await sendOnce(p.call, p.spec, extra) };
  const key = p.route.key;
  for (;;) {
    p.backend ??= p.options.backend ?? backendMemory.get(key)?.backend;
    if (p.backend === "tgi") return { res: await sendOnce(p.call, p.spec, extra) };
    if (p.backend === "transformers") return { output: await sendPipeline(p, extra) };
    const running = backendMemory.detections.get(key);
    if (!running) break;
    await p.call.until(running);
  }
  const detection = detect(p, extra);
  const done = detection.then(
    () => {},
    () => {},
  );
  backendMemory.detections.set(key, done);
  void done.then(() => {
    if (backendMemory.detections.get(key) === done) backendMemory.detections.delete(key);
  });
  return detection;
}

async function detect(p: Prepared, extra: Record<string, string> | undefined): Promise<ChatAnswer> {
  try {
    const res = await sendOnce(p.call, p.spec, extra);
    backendMemory.remember(p.route.key, "tgi");
    p.backend = "tgi";
    return { res };
  } catch (error) {
    if (!(error instanceof HttpError) || !isNotTgi(error)) throw error;
    p.backend = "transformers";
    p.chatRouteAnswer = `HTTP ${error.status} "${readErrorFields(error.body).message.slice(0, 120)}"`;
  }
  return { output: await sendPipeline(p, extra) };
}

/**
 * One attempt of a chat call (`send` and, for a stream, its first event). A TGI older than 2.0.2 refuses
 * `temperature: 0`: the call is sent once more with its greedy equivalent there, and the endpoint is
 * remembered, so later calls send that at once (one request each).
 */
export async function withZeroTemperatureFallback<T>(p: Prepared, send: () => Promise<T>): Promise<T> {
  const { route } = p;
  const sendGreedyByTopP = (): void => {
    p.spec = { ...p.spec, body: serialize(greedyByTopP(p.spec.body.value)) };
  };
  const zero = p.spec.body.value.temperature === 0;
  if (zero && backendMemory.get(route.key)?.dropped.has(ZERO_TEMPERATURE)) sendGreedyByTopP();
  try {
    return await send();
  } catch (error) {
    if (!refusedZeroTemperature(error, p.spec.body.value)) throw error;
    warnOnce(p.logger, `t0:${route.key || route.model}`, `${route.model}: TGI < 2.0.2 refuses \`temperature: 0\`, sent as \`top_p: 1e-6\` (greedy).`);
    sendGreedyByTopP();
    const result = await send();
    if (route.key) backendMemory.remember(route.key, "tgi", new Set([ZERO_TEMPERATURE]));
    return result;
  }
}

/** The recorded answers of TGI's chat route on a model the transformers pipeline serves. */
export function isNotTgi(error: HttpError): boolean {
  const f = readErrorFields(error.body);
  if (error.status === 500) {
    const warnings = (error.body as { warnings?: unknown } | null)?.warnings;
    return f.errorType === undefined && /unknown error/i.test(f.message) && Array.isArray(warnings);
  }
  if (error.status === 400) return /wrong format|not supported/i.test(f.message);
  if (error.status === 404) return !/does not exist/i.test(f.message);
  return false;
}

/** The pipeline call, dropping once the parameters a 400 names as unused `model_kwargs`. */
async function sendPipeline(p: Prepared, extra: Record<string, string> | undefined): Promise<ChatCompletionOutput> {
  const { args, route } = p;
  checkPipelineSupport(args, p.options.lenient === true, p.logger, route.model);
  const dropped = new Set(backendMemory.get(route.key)?.dropped);
  for (let recovered = false; ; recovered = true) {
    const body = pipelineBody(args, dropped);
    try {
      const res = await sendOnce(p.call, { ...p.spec, url: route.pipelineUrl, body: serialize(body) }, extra);
      const text = await readText(p.call, res);
      backendMemory.remember(route.key, "transformers", dropped);
      return pipelineOutput(parseMaybeJson(text), route.model, dropped.has("stop") ? args.stop : undefined, text, p.call.secret);
    } catch (error) {
      const unused = error instanceof HttpError ? unusedModelKwargs(error) : undefined;
      const parameters = body.parameters as Record<string, unknown>;
      if (!recovered && unused?.length && unused.every((name) => name in parameters)) {
        for (const name of unused) dropped.add(name);
        const stopNote = unused.includes("stop") ? "; the client applies `stop` to the answer" : "";
        p.logger.warn(`Model ${route.model} does not take ${unused.map((n) => `\`${n}\``).join(", ")}: sent without${stopNote}.`);
        continue;
      }
      if (p.chatRouteAnswer && error instanceof HttpError) {
        error.message += `; its chat route had answered ${p.chatRouteAnswer}, so the transformers pipeline was tried`;
      }
      throw error;
    }
  }
}
