// Compiled with tasks-io.ts against hfkit only (tsconfig.hfkit.json): where hfkit is stricter than 4.13,
// a typo beside a tasks-typed input is still a type error (4.13's arguments, with tasks' index signatures,
// take any field). `collectStream` is hfkit's: this file does not compile if the alias resolves elsewhere.
import type { ChatCompletionInput, ChatCompletionInputMessage } from "@huggingface/tasks";
import { InferenceClient, chatCompletionStream, collectStream } from "@huggingface/inference";

declare const client: InferenceClient;
declare const input: ChatCompletionInput;
declare const said: ChatCompletionInputMessage;
const model = "org/model";

export async function typosBesideTasksInputs(): Promise<unknown[]> {
  // @ts-expect-error `max_token` is not a field: `max_tokens` is
  const a = await client.chatCompletion({ ...input, model, max_token: 20 });
  // @ts-expect-error `temprature` is not a field
  const b = await collectStream(chatCompletionStream({ ...input, model, temprature: 0.3 }));
  // @ts-expect-error a message has `content`, not `contnet`
  const c = await client.chatCompletion({ ...input, model, messages: [{ ...said, contnet: "Hi" }] });
  // @ts-expect-error `top_logprob` is not a field: `top_logprobs` is
  const d = await client.chatCompletion({ ...input, model, logprobs: true, top_logprob: 3 });
  return [a, b, c, d];
}

// A token that may be unset (`process.env.HF_TOKEN`), taken with `exactOptionalPropertyTypes` on too.
export function unsetToken(token: string | undefined, input: ChatCompletionInput): Promise<unknown> {
  return client.chatCompletion({ ...input, accessToken: token, model });
}
