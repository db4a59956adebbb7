import { InputError } from "../core/errors";
import type { ChatCompletionInputMessage, ConversationalArgs, ConversationalOutput, Options } from "../types";
import { chatCompletion } from "./chatCompletion";

/**
 * The retired "conversational" task, as older wrappers still call it: the history becomes
 * alternating user/assistant messages plus the new user text, answered by a chat completion.
 */
export async function conversational(args: ConversationalArgs, options: Options = {}): Promise<ConversationalOutput> {
  const { inputs, parameters, ...base } = args;
  if (typeof inputs !== "object" || inputs === null || typeof inputs.text !== "string") {
    throw new InputError("`inputs.text` must be a string", "inputs.text");
  }
  const past = inputs.past_user_inputs ?? [];
  const responses = inputs.generated_responses ?? [];
  const messages: ChatCompletionInputMessage[] = [];
  for (let i = 0; i < Math.max(past.length, responses.length); i++) {
    if (past[i] !== undefined) messages.push({ role: "user", content: past[i] });
    if (responses[i] !== undefined) messages.push({ role: "assistant", content: responses[i] });
  }
  messages.push({ role: "user", content: inputs.text });
  const out = await chatCompletion(
    {
      ...base,
      messages,
      ...(parameters?.temperature !== undefined ? { temperature: parameters.temperature } : {}),
      ...(parameters?.top_p !== undefined ? { top_p: parameters.top_p } : {}),
      ...(parameters?.max_new_tokens !== undefined ? { max_tokens: parameters.max_new_tokens } : {}),
    },
    options,
  );
  const generated = out.choices[0]?.message.content ?? "";
  return {
    generated_text: generated,
    conversation: { past_user_inputs: [...past, inputs.text], generated_responses: [...responses, generated] },
  };
}
