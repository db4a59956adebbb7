import type { RunToolsArgs, RunToolsOptions, SchemaLike, SchemaTool, ToolRun, ToolRunEvent } from "../types";
import { chatCompletion } from "./chatCompletion";
import { chatCompletionStream } from "./chatCompletionStream";

/** Each step of a loop is one of these chat calls: the whole call core, failover included. */
const STEP_CALLS = { whole: chatCompletion, stream: chatCompletionStream };

/**
 * A tool loop (`features/tools.ts`, loaded on first use): the model is called with the tools; the calls it asks for
 * run concurrently (each checked, approved, under its own time limit), their results go back to it, until it answers
 * without tools or `maxSteps` is reached. Resolves to the last message, every step and the conversation.
 */
export async function runTools<const S extends readonly SchemaLike[]>(
  args: RunToolsArgs<S>,
  options: RunToolsOptions = {},
): Promise<ToolRun> {
  const loop = (await import("../features/tools")).toolLoop(args, options, STEP_CALLS, false);
  for (;;) {
    const next = await loop.next();
    if (next.done) return next.value;
  }
}

/** A tool loop streamed as events: each step's text, each tool call as it is formed, each result as it comes, each step's end, the end. */
export async function* runToolsStream<const S extends readonly SchemaLike[]>(
  args: RunToolsArgs<S>,
  options: RunToolsOptions = {},
): AsyncGenerator<ToolRunEvent, ToolRun, unknown> {
  return yield* (await import("../features/tools")).toolLoop(args, options, STEP_CALLS, true);
}

/**
 * A tool whose `run` takes the arguments its `parameters` describe: a validator's output type (Zod, Valibot,
 * ArkType), `unknown` for a plain JSON Schema. For tools defined apart from the `runTools` call (written inside its
 * `tools`, they are typed the same way). Only a type is made: the runner checks the tool when the loop starts.
 */
export function tool<const S extends SchemaLike>(definition: SchemaTool<S>): SchemaTool<S> {
  return definition;
}
