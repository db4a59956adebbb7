// The demo: the SDK streaming a chat from the embedded mock hub. No token, no network.
import { InferenceClient } from "@hfkit/inference";
import { startMockHub } from "@hfkit/mock-hub";

const hub = await startMockHub();
const model = "hfkit/tgi-2.0"; // a TGI 2.0 server: `data:` without a space, never `[DONE]`
hub.inject({ type: "slow", delayMs: 60 }, { model });
hub.inject({ type: "linger" }, { model }); // and it keeps the socket open after the answer

const client = new InferenceClient(undefined, { baseUrl: hub.url });
console.log(`mock hub on ${hub.url}\n`);
console.log(`> streaming from ${model} (no [DONE], socket left open by the server)`);
const started = Date.now();
for await (const chunk of client.chatCompletionStream({
  model,
  messages: [{ role: "user", content: "What is the capital of France?" }],
  max_tokens: 50,
  top_p: 1, // OpenAI-valid; TGI rejects it, hfkit maps it
})) {
  process.stdout.write(chunk.choices[0]?.delta?.content ?? "");
}
console.log(`\n  (stream completed in ${Date.now() - started} ms)\n`);

console.log("> a non-streamed call to hfkit/tgi-3.2");
const out = await client.chatCompletion({
  model: "hfkit/tgi-3.2",
  messages: [{ role: "user", content: "What is the capital of France?" }],
  max_tokens: 4,
});
console.log(
  `  ${JSON.stringify(out.choices[0]?.message.content)} (finish_reason: ${out.choices[0]?.finish_reason}, usage: ${JSON.stringify(out.usage)})\n`,
);

console.log("> a validation error that TGI 2.0 sends inside a 200 stream, and then nothing");
try {
  for await (const chunk of client.chatCompletionStream({
    model: "hfkit/tgi-2.0",
    messages: [{ role: "user", content: "Hi" }],
    max_tokens: 5000, // more than the model's context: only the server can tell
  }))
    process.stdout.write(chunk.choices[0]?.delta?.content ?? "");
} catch (error) {
  console.log(`  ${error.name}: ${error.message}`);
}

await hub.close();
