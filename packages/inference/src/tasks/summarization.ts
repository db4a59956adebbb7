import type { Options, SummarizationArgs, SummarizationOutput } from "../types";
import { runTask } from "./run";
import { fields, first, isString, listOf, shaped } from "../checks/answers";
import { textBody } from "../checks/inputs";

const TASK = "summarization";

/** Summarises a text. */
export function summarization(args: SummarizationArgs, options?: Options): Promise<SummarizationOutput> {
  return runTask(
    {
      task: TASK,
      body: textBody,
      answer: shaped(TASK, listOf(fields({ summary_text: isString })), "Array<{summary_text: string}>", first),
    },
    args,
    options,
  );
}
