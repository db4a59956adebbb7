// npm i @hfkit/inference
import { InferenceClient } from "@hfkit/inference";

const client = new InferenceClient("hf_***", {
  baseUrl: "http://localhost:8080",
});

const output = await client.textGeneration({
  model: "openai-community/gpt2",
  inputs: "What is the capital of France?",
  parameters: {
    max_new_tokens: 500,
    temperature: 0.5,
  },
});

console.log(output.generated_text);
