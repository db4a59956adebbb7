import { InferenceClient } from "@huggingface/inference";

const client = new InferenceClient("hf_token");
const out = document.querySelector("#out");
for await (const chunk of client.chatCompletionStream({
  model: "meta-llama/Llama-3.1-8B-Instruct",
  messages: [{ role: "user", content: "What is the capital of France?" }],
})) {
  out.append(chunk.choices[0]?.delta?.content ?? "");
}
