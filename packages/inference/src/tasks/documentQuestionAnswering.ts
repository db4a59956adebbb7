import type { DocumentQuestionAnsweringArgs, DocumentQuestionAnsweringOutputElement, Options } from "../types";
import { imageQuestionBody } from "./imageQuestion";
import { runTask } from "./run";
import { fields, first, isNumber, isString, listOf, shaped } from "../checks/answers";

const TASK = "document-question-answering";

/** Answers a question on a document image (a scan, an invoice). */
export function documentQuestionAnswering(
  args: DocumentQuestionAnsweringArgs,
  options?: Options,
): Promise<DocumentQuestionAnsweringOutputElement> {
  const element = fields({ answer: isString, end: isNumber, score: isNumber, start: isNumber });
  return runTask(
    {
      task: TASK,
      body: imageQuestionBody,
      answer: shaped(
        TASK,
        listOf(element),
        "Array<{answer: string, end: number, score: number, start: number}>",
        first,
      ),
    },
    args,
    options,
  );
}
