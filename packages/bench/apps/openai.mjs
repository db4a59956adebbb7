import OpenAI from "openai";

const client = new OpenAI({
  apiKey: "hf_token",
  baseURL: "https://router.huggingface.co/v1",
  dangerouslyAllowBrowser: true,
});
const out = document.querySelector("#out");
const stream = await client.chat.completions.create({
  model: "meta-llama/Llama-3.1-8B-Instruct",
  messages: [{ role: "user", content: "What is the capital of France?" }],
  stream: true,
});
for await (const chunk of stream) {
  out.append(chunk.choices[0]?.delta?.content ?? "");
}
