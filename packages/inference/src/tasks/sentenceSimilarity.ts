import type { Options, SentenceSimilarityArgs, SentenceSimilarityOutput } from "../types";
import { runTask } from "./run";
import { arrayOf, isNumber, shaped } from "../checks/answers";
import { needString, needStrings, objectBody } from "../checks/inputs";

const TASK = "sentence-similarity";

/** How similar a sentence is to each of others: one score per sentence. */
export function sentenceSimilarity(args: SentenceSimilarityArgs, options?: Options): Promise<SentenceSimilarityOutput> {
  return runTask(
    {
      task: TASK,
      body: (args) =>
        objectBody(
          args,
          (inputs) => (
            needString(inputs.source_sentence, "inputs.source_sentence"),
            needStrings(inputs.sentences, "inputs.sentences")
          ),
        ),
      answer: shaped(TASK, arrayOf(isNumber), "Array<number>"),
    },
    args,
    options,
  );
}
