/** Featherless AI under the router (`/featherless-ai/...`): its OpenAI-compatible completions. */
import { completions } from "./openaiCompatible.js";
import type { MockProvider } from "./route.js";

export const FEATHERLESS_AI: MockProvider = {
  routes: [
    { pattern: /^\/featherless-ai\/v1\/completions\/?$/, serve: (body) => completions(body, "mock-featherless") },
  ],
  mappings: {
    "hfkit/text-generation": {
      "featherless-ai": { providerId: "hfkit-featherless/llama", task: "text-generation", status: "live" },
    },
  },
};
