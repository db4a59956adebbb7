// Typos in the known argument fields are type errors; server-specific fields go in `extra_body`.
// Type-checked under `strict` with the other files here (see types.test.ts): an `@ts-expect-error`
// with no error under it fails the check.
import { type ChatCompletionFinishReason, type ChatCompletionRole, InferenceClient } from "@hfkit/inference";

declare const client: InferenceClient;
const messages = [{ role: "user", content: "Hi" }] as const;

export async function typos(): Promise<void> {
  // @ts-expect-error `max_token` is not a field: `max_tokens` is
  await client.chatCompletion({ model: "m", messages: [...messages], max_token: 20 });
  // @ts-expect-error `temprature` is not a field
  await client.chatCompletion({ model: "m", messages: [...messages], temprature: 0.3 });
  // @ts-expect-error a message has `content`, not `contnet`
  await client.chatCompletion({ model: "m", messages: [{ role: "user", contnet: "Hi" }] });
  // @ts-expect-error `max_tokens` is a number
  await client.chatCompletion({ model: "m", messages: [...messages], max_tokens: "20" });

  // What servers take beyond OpenAI's fields, typed as such.
  await client.chatCompletion({
    model: "m",
    messages: [...messages],
    extra_body: { top_k: 40, chat_template_kwargs: { enable_thinking: false } },
  });
  for await (const chunk of client.chatCompletionStream({
    model: "m",
    messages: [...messages],
    stream_options: { include_usage: true, continuous_usage_stats: true },
  })) {
    const reason: ChatCompletionFinishReason | undefined = chunk.choices[0]?.finish_reason;
    const reasoning: string | undefined = chunk.choices[0]?.delta.reasoning;
    void reason;
    void reasoning;
  }
  // Roles and finish reasons autocomplete, and stay open to other strings.
  const roles: ChatCompletionRole[] = ["system", "user", "assistant", "tool", "developer", "ipython"];
  const reasons: ChatCompletionFinishReason[] = ["stop", "length", "tool_calls", "content_filter", "eos_token"];
  void roles;
  void reasons;
}
