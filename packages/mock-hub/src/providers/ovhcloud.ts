/** OVHcloud AI Endpoints under the router (`/ovhcloud/...`): its OpenAI-compatible completions. */
import { completions } from "./openaiCompatible.js";
import type { MockProvider } from "./route.js";

export const OVHCLOUD: MockProvider = {
  routes: [{ pattern: /^\/ovhcloud\/v1\/completions\/?$/, serve: (body) => completions(body, "mock-ovhcloud") }],
  mappings: {
    "hfkit/text-generation": {
      ovhcloud: { providerId: "hfkit-ovhcloud/llama", task: "text-generation", status: "live" },
    },
  },
};
