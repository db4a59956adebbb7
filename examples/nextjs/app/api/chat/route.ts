// app/api/chat/route.ts in a Next.js app (App Router): POST /api/chat with {"messages": [...]} streams the
// answer to the browser as OpenAI's server-sent events (`data: {chunk}` per chunk, then `data: [DONE]`).
// The token stays on the server: set HF_TOKEN in the app's environment (HF_BASE_URL, optional, names an
// hf-inference-style server instead of the HF router, e.g. a mock hub).
import { InferenceClient, toResponse, type ChatCompletionInputMessage } from "@hfkit/inference";

const client = new InferenceClient(process.env.HF_TOKEN, { baseUrl: process.env.HF_BASE_URL || undefined });
const MODEL = "meta-llama/Llama-3.1-8B-Instruct";

export async function POST(req: Request): Promise<Response> {
  const body = (await req.json().catch(() => undefined)) as { messages?: ChatCompletionInputMessage[] } | undefined;
  if (!Array.isArray(body?.messages))
    return Response.json({ error: { message: 'POST {"messages": [...]}' } }, { status: 400 });
  // req.signal: a browser that leaves (a closed tab, a stop button) cancels the call to the model at once.
  const stream = client.chatCompletionStream(
    { model: MODEL, messages: body.messages, max_tokens: 500 },
    { signal: req.signal },
  );
  return toResponse(stream);
}
