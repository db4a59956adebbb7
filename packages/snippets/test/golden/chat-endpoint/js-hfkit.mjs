// npm i @hfkit/inference
import { InferenceClient } from "@hfkit/inference";

const client = new InferenceClient("hf_example", {
  endpointUrl: "https://abc123.us-east-1.aws.endpoints.huggingface.cloud",
});

const stream = client.chatCompletionStream({
  model: "HuggingFaceH4/zephyr-7b-beta",
  messages: [
    {
      role: "system",
      content: "Answer in one sentence.",
    },
    {
      role: "user",
      content: "What's the \"capital\" of France?",
    },
  ],
  max_tokens: 100,
  temperature: 0.7,
});

for await (const chunk of stream) {
  process.stdout.write(chunk.choices[0]?.delta?.content ?? "");
}
