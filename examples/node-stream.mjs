// A Node script streaming a chat to the terminal: node node-stream.mjs ["your question"]
// HF_TOKEN: your Hugging Face token. HF_BASE_URL (optional): an hf-inference-style server instead of the HF
// router, e.g. the mock hub's URL from `pnpm hfkit mock-hub` in the clone (no token, no network).
import { InferenceClient } from "@hfkit/inference";

const client = new InferenceClient(process.env.HF_TOKEN, { baseUrl: process.env.HF_BASE_URL || undefined });
const question = process.argv[2] ?? "What is the capital of France?";

// Ctrl-C cancels the request at once (the stream's body is released), not at the next chunk.
const controller = new AbortController();
process.once("SIGINT", () => controller.abort());

try {
  const stream = client.chatCompletionStream(
    { model: "meta-llama/Llama-3.1-8B-Instruct", messages: [{ role: "user", content: question }], max_tokens: 500 },
    { signal: controller.signal, timeout: 120_000 },
  );
  for await (const chunk of stream) process.stdout.write(chunk.choices[0]?.delta?.content ?? "");
  process.stdout.write("\n");
} catch (error) {
  console.error(`\n${error.name}: ${error.message}`);
  process.exitCode = error.name === "AbortError" ? 130 : 1;
}
