// npm i @hfkit/inference
import { InferenceClient } from "@hfkit/inference";

const client = new InferenceClient("hf_***");

const stream = client.chatCompletionStream({
  model: "Qwen/Qwen2.5-VL-7B-Instruct",
  messages: [
    {
      role: "user",
      content: "What is the capital of France?",
    },
  ],
  max_tokens: 500,
});

for await (const chunk of stream) {
  process.stdout.write(chunk.choices[0]?.delta?.content ?? "");
}
