import type { ImageQuestionArgs } from "../types";
import { base64Of, checkParameters, jsonBody, needObject, needString, type TaskBody } from "../checks/inputs";

/** `documentQuestionAnswering` and `visualQuestionAnswering`: `{inputs: {question, image}}`, the image base64-encoded in JSON. */
export async function imageQuestionBody(args: ImageQuestionArgs): Promise<TaskBody> {
  const inputs = needObject(args.inputs, "inputs");
  const question = needString(inputs.question, "inputs.question");
  checkParameters(args.parameters);
  return jsonBody(args, { inputs: { question, image: await base64Of(inputs.image, "inputs.image") } });
}
