// npm i openai
import OpenAI from "openai";

const client = new OpenAI({
  baseURL: "https://abc123.us-east-1.aws.endpoints.huggingface.cloud/v1",
  apiKey: "hf_example",
});

const stream = await client.chat.completions.create({
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
  stream: true,
});

for await (const chunk of stream) {
  process.stdout.write(chunk.choices[0]?.delta?.content ?? "");
}
