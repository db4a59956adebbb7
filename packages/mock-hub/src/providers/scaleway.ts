/** Scaleway under the router (`/scaleway/...`): its OpenAI-compatible completions and embeddings. */
import { completions, embeddings } from "./openaiCompatible.js";
import type { MockProvider } from "./route.js";

export const SCALEWAY: MockProvider = {
  routes: [
    { pattern: /^\/scaleway\/v1\/completions\/?$/, serve: (body) => completions(body, "mock-scaleway") },
    { pattern: /^\/scaleway\/v1\/embeddings\/?$/, serve: embeddings },
  ],
  mappings: {
    "hfkit/text-generation": {
      scaleway: { providerId: "hfkit-scaleway/llama", task: "text-generation", status: "live" },
    },
    "hfkit/embeddings": { scaleway: { providerId: "hfkit-scaleway/bge", task: "feature-extraction", status: "live" } },
  },
};
