/** Groq under the router (`/groq/...`): its OpenAI-compatible chat route (it has no completions route). */
import { chatCompletions } from "./openaiCompatible.js";
import type { MockProvider } from "./route.js";

export const GROQ: MockProvider = {
  routes: [
    {
      pattern: /^\/groq\/openai\/v1\/chat\/completions\/?$/,
      serve: (body) => chatCompletions(body, "mock-groq", "'messages' : property 'messages' is missing"),
    },
  ],
  mappings: {
    "hfkit/text-generation": { groq: { providerId: "hfkit-groq/llama", task: "text-generation", status: "live" } },
  },
};
