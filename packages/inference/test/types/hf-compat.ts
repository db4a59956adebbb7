// Code as written and typed against @huggingface/inference 4.x, with only the import line changed.
// Type-checked under `strict` with no Node types (see types.test.ts).
import {
  type ChatCompletionInputMessage,
  type ChatCompletionOutput,
  type ChatCompletionStreamOutput,
  HfInference,
  InferenceClient,
  InferenceClientError,
  InferenceClientInputError,
  InferenceClientProviderApiError,
  chatCompletion,
  chatCompletionStream,
} from "@hfkit/inference";

declare const token: string | undefined;

export async function usage(): Promise<string> {
  const client = new InferenceClient(token);
  const legacy = new HfInference(token, { retry_on_error: false, billTo: "org" });

  // `role` as a plain string, as apps build their histories.
  const history: { role: string; content: string }[] = [{ role: "user", content: "Hi" }];
  const messages: ChatCompletionInputMessage[] = history;

  const out: ChatCompletionOutput = await client.chatCompletion({
    model: "meta-llama/Llama-3.1-8B-Instruct",
    provider: "hf-inference",
    messages,
    max_tokens: 100,
    temperature: 0.1,
    seed: 0,
  });
  let text: string = out.choices[0].message.content ?? "";

  const stream: AsyncGenerator<ChatCompletionStreamOutput> = legacy.chatCompletionStream({
    model: "x",
    messages: history,
    stream_options: { include_usage: true },
  });
  for await (const chunk of stream) {
    if (chunk.choices && chunk.choices.length > 0) text += chunk.choices[0].delta.content ?? "";
    if (chunk.usage) text += String(chunk.usage.total_tokens);
  }

  // An endpoint-bound client needs no model.
  const endpoint = client.endpoint("https://example.endpoints.huggingface.cloud");
  await endpoint.chatCompletion({ messages: history });
  await chatCompletion({ accessToken: token, endpointUrl: "https://e.example", messages: history });
  for await (const chunk of chatCompletionStream(
    { accessToken: token, model: "x", messages: history },
    { signal: new AbortController().signal },
  )) {
    text += chunk.choices[0]?.delta?.content ?? "";
  }

  const generated = await client.textGeneration({ model: "gpt2", inputs: "Hello", parameters: { max_new_tokens: 5 } });
  text += generated.generated_text;
  for await (const event of client.textGenerationStream({ model: "gpt2", inputs: "Hello" })) text += event.token.text;

  try {
    await client.chatCompletion({ model: "x", messages: history });
  } catch (error) {
    if (error instanceof InferenceClientProviderApiError) {
      text += `${error.httpResponse.status} ${error.httpRequest.url} ${error.httpResponse.requestId}`;
    } else if (error instanceof InferenceClientInputError || error instanceof InferenceClientError) {
      text += error.message;
    }
  }
  return text;
}

// The other root exports code written for @huggingface/inference 4.x imports.
import {
  INFERENCE_PROVIDERS,
  type InferenceProvider,
  type InferenceProviderOrPolicy,
  InferenceClientEndpoint,
  InferenceClientRoutingError,
  PROVIDERS_OR_POLICIES,
  setLogger,
  type TextGenerationStreamDetails,
  type TextGenerationStreamFinishReason,
} from "@hfkit/inference";

export function more(details: TextGenerationStreamDetails | null, error: unknown): string {
  setLogger({ warn: () => {}, info: () => {}, debug: () => {} });
  const provider: InferenceProvider = INFERENCE_PROVIDERS[0];
  const policy: InferenceProviderOrPolicy = PROVIDERS_OR_POLICIES.includes("auto") ? "auto" : provider;
  const endpoint = new InferenceClientEndpoint(token, { endpointUrl: "https://e.example" });
  const reason: TextGenerationStreamFinishReason | undefined = details?.finish_reason;
  const routing = error instanceof InferenceClientRoutingError ? error.message : "";
  return `${policy}${reason ?? ""}${routing}${endpoint ? "" : "?"}`;
}
