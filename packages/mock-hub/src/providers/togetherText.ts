/** Together under the router (`/together/...`): its completions (a `seed` in each choice) and embeddings. */
import { completions, embeddings } from "./openaiCompatible.js";
import type { MockProvider } from "./route.js";

export const TOGETHER_TEXT: MockProvider = {
  routes: [
    { pattern: /^\/together\/v1\/completions\/?$/, serve: (body) => completions(body, "mock-together", { seed: 42 }) },
    { pattern: /^\/together\/v1\/embeddings\/?$/, serve: embeddings },
  ],
  mappings: {
    "hfkit/text-generation": {
      together: { providerId: "hfkit-together/llama", task: "text-generation", status: "live" },
    },
    "hfkit/embeddings": { together: { providerId: "hfkit-together/bge", task: "feature-extraction", status: "live" } },
  },
};
