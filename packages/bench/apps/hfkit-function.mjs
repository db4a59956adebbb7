import { chatCompletionStream } from "@hfkit/inference";

const out = document.querySelector("#out");
for await (const chunk of chatCompletionStream({
  accessToken: "hf_token",
  model: "meta-llama/Llama-3.1-8B-Instruct",
  messages: [{ role: "user", content: "What is the capital of France?" }],
})) {
  out.append(chunk.choices[0]?.delta?.content ?? "");
}
