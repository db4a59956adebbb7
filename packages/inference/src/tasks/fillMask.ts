import type { FillMaskArgs, FillMaskOutput, Options } from "../types";
import { runTask } from "./run";
import { arrayOf, fields, isNumber, isString, shaped } from "../checks/answers";
import { textBody } from "../checks/inputs";

const TASK = "fill-mask";

/** Fills in the masked word of a text (BERT-style models): the candidates, most likely first. */
export function fillMask(args: FillMaskArgs, options?: Options): Promise<FillMaskOutput> {
  return runTask(
    {
      task: TASK,
      body: textBody,
      answer: shaped(
        TASK,
        arrayOf(fields({ score: isNumber, sequence: isString, token: isNumber, token_str: isString })),
        "Array<{score: number, sequence: string, token: number, token_str: string}>",
      ),
    },
    args,
    options,
  );
}
