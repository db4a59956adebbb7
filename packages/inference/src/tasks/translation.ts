import type { Options, TranslationArgs, TranslationOutput } from "../types";
import { runTask } from "./run";
import { fields, first, isString, listOf, shaped } from "../checks/answers";
import { textBody } from "../checks/inputs";

const TASK = "translation";

/** Translates a text (the languages are the model's, or `parameters.src_lang` / `tgt_lang`). */
export function translation(args: TranslationArgs, options?: Options): Promise<TranslationOutput> {
  return runTask(
    {
      task: TASK,
      body: textBody,
      answer: shaped(TASK, listOf(fields({ translation_text: isString })), "Array<{translation_text: string}>", first),
    },
    args,
    options,
  );
}
