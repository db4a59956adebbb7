// Chat and text generation, both ways, typed with @huggingface/tasks as a 4.13 user types them (see
// tasks-io.ts): tasks-typed inputs spread into the calls, each answer and chunk assigned to the tasks type;
// the custom calls; what both packages refuse. Compiled against hfkit's src and against 4.13.
import type {
  ChatCompletionInput,
  ChatCompletionInputMessage,
  ChatCompletionOutput,
  ChatCompletionStreamOutput,
  FillMaskInput,
  FillMaskOutput,
  TextClassificationOutput,
  TextGenerationInput,
  TextGenerationOutput,
} from "@huggingface/tasks";
import {
  InferenceClient,
  chatCompletion,
  chatCompletionStream,
  fillMask,
  request,
  streamingRequest,
  textGeneration,
  textGenerationStream,
} from "@huggingface/inference";

declare const accessToken: string;
declare const client: InferenceClient;
const model = "org/model";
const provider = "hf-inference";

export async function chat(input: ChatCompletionInput, history: ChatCompletionInputMessage[]): Promise<unknown[]> {
  const a: ChatCompletionOutput = await client.chatCompletion({ ...input, model, provider });
  const b: ChatCompletionOutput = await chatCompletion({ ...input, accessToken, model, provider });
  const c: ChatCompletionOutput = await client.chatCompletion({ model, messages: history, max_tokens: 9 });
  // The answer's message, tool calls and all, goes back into a tasks-typed history.
  const ours = await client.chatCompletion({ ...input, model });
  const next: ChatCompletionInputMessage[] = [...history, a.choices[0].message, ours.choices[0].message];
  await chatCompletion({ ...input, model, messages: next });
  for await (const chunk of client.chatCompletionStream({ ...input, model, provider })) {
    const d: ChatCompletionStreamOutput = chunk;
    void d;
  }
  for await (const chunk of chatCompletionStream({ ...input, accessToken, model })) {
    const e: ChatCompletionStreamOutput = chunk;
    void e;
  }
  // On an endpoint, the tasks value is the whole argument.
  const f: ChatCompletionOutput = await client.endpoint("https://e.example").chatCompletion(input);
  return [a, b, c, f];
}

// Every field @huggingface/tasks declares, written out as a literal (an unknown field would be an error).
export function everyChatField(): Promise<ChatCompletionOutput> {
  const tool = { name: "f", description: "d", parameters: { type: "object" } };
  const call = { id: "call_1", type: "function", function: tool };
  const said = [
    { type: "text" as const, text: "Hi" },
    { type: "image_url" as const, image_url: { url: "https://i" } },
  ];
  return client.chatCompletion({
    model,
    provider,
    messages: [
      { role: "user", content: said, name: "me" },
      { role: "assistant", tool_calls: [call] },
    ],
    frequency_penalty: 0,
    logit_bias: [0.5],
    logprobs: true,
    max_tokens: 9,
    n: 1,
    presence_penalty: 0,
    reasoning_effort: "low",
    response_format: { type: "json_schema", json_schema: { name: "x", schema: {}, strict: true, description: "d" } },
    seed: 1,
    stop: ["\n"],
    stream: false,
    stream_options: { include_usage: true },
    temperature: 0,
    tool_choice: { function: { name: "f" } },
    tool_prompt: "Use a tool",
    tools: [{ type: "function", function: tool }],
    top_logprobs: 2,
    top_p: 1,
  });
}

export async function generation(input: TextGenerationInput): Promise<unknown[]> {
  const c: TextGenerationOutput = await client.endpoint("https://e.example").textGeneration(input);
  const a: TextGenerationOutput = await client.textGeneration({ ...input, model, provider });
  const b: TextGenerationOutput = await textGeneration({ ...input, accessToken, model, provider });
  // 4.13's chunk has `generated_text: string | null` and `details: … | null` where the tasks'
  // TextGenerationStreamOutput has them optional, and its `index` is optional where tasks requires it:
  // neither package's chunk is assigned to the tasks type.
  for await (const chunk of client.textGenerationStream({ ...input, model, provider })) void chunk.token.text;
  for await (const chunk of textGenerationStream({ ...input, accessToken, model })) void chunk.token.text;
  return [a, b, c];
}

// The custom calls take a tasks input as it is; the answer is typed by the caller.
export async function custom(input: ChatCompletionInput, fill: FillMaskInput): Promise<unknown[]> {
  const a: ChatCompletionOutput = await client.request<ChatCompletionOutput>({ ...input, model, provider });
  const b: FillMaskOutput = await request<FillMaskOutput>({ ...fill, accessToken, model }, { task: "fill-mask" });
  for await (const chunk of streamingRequest<ChatCompletionStreamOutput>({ ...input, model })) void chunk.choices;
  for await (const chunk of client.streamingRequest<ChatCompletionStreamOutput>({ ...input, model })) void chunk.id;
  return [a, b];
}

// What both packages refuse, so that this file cannot pass against a package typed `any`.
export async function refused(
  input: ChatCompletionInput,
  generate: TextGenerationInput,
  fill: FillMaskInput,
): Promise<unknown[]> {
  // @ts-expect-error `provider` is a string
  const a = await client.chatCompletion({ ...input, model, provider: 42 });
  // @ts-expect-error `max_new_tokens` is a number
  const b = await client.textGeneration({ ...generate, model, parameters: { max_new_tokens: "5" } });
  // @ts-expect-error fill-mask's `inputs` is a string
  const c = await fillMask({ ...fill, model, inputs: 42 });
  // @ts-expect-error an answer's id is a string
  const d: number = (await chatCompletion({ ...input, model })).id;
  // @ts-expect-error a classification answer is a list
  const e: TextClassificationOutput[number] = await client.textClassification({ model, inputs: "I like you" });
  return [a, b, c, d, e];
}
