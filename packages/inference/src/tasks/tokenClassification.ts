import type { Options, TokenClassificationArgs, TokenClassificationOutput } from "../types";
import { runTask } from "./run";
import { arrayOf, fields, isNumber, isString, shaped } from "../checks/answers";
import { textBody } from "../checks/inputs";

const TASK = "token-classification";

/** Labels the words of a text (named entities, parts of speech): the labelled spans. */
export function tokenClassification(
  args: TokenClassificationArgs,
  options?: Options,
): Promise<TokenClassificationOutput> {
  return runTask(
    {
      task: TASK,
      body: textBody,
      answer: shaped(
        TASK,
        arrayOf(fields({ end: isNumber, score: isNumber, start: isNumber, word: isString, entity_group: isString })),
        "Array<{end: number, entity_group: string, score: number, start: number, word: string}>",
      ),
    },
    args,
    options,
  );
}
