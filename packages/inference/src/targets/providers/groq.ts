/** Groq (`https://router.huggingface.co/groq/...`): text-generation on its chat route, where 4.13's `GroqTextGenerationTask` posts. */
import { chatTextTask } from "./openaiCompatible";

/** `POST /openai/v1/chat/completions`: the prompt as one user message; the reply's content is `generated_text`. */
export const groqTextGeneration = /* @__PURE__ */ chatTextTask("Groq text generation", "openai/v1/chat/completions");
