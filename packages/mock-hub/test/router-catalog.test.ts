import { describe, expect, it } from "vitest";
import { routerChat, useHub } from "./helpers.js";

const hub = useHub({
  models: {
    "acme/vision": {
      maxTotalTokens: 8192,
      architecture: { inputModalities: ["text", "image"] },
      providers: [
        "groq",
        {
          provider: "acme",
          status: "staging",
          contextLength: null,
          pricing: { input: 1, output: 2 },
          supportsTools: false,
          isModelAuthor: true,
        },
      ],
    },
  },
});

type Json = Record<string, any>;
const catalog = async (): Promise<Json[]> => ((await (await fetch(`${hub().url}/v1/models`)).json()) as Json).data;

describe("the router's GET /v1/models", () => {
  it("answers each model's architecture and, per provider, status, context length, pricing and capabilities", async () => {
    const entry = (await catalog()).find((model) => model.id === "acme/vision");
    expect(entry).toEqual({
      id: "acme/vision",
      object: "model",
      created: 1735689600,
      owned_by: "acme",
      architecture: { input_modalities: ["text", "image"], output_modalities: ["text"] },
      providers: [
        {
          provider: "groq",
          status: "live",
          context_length: 8192,
          pricing: { input: 0.1, output: 0.3 },
          supports_tools: true,
          supports_structured_output: true,
          is_model_author: false,
        },
        {
          provider: "acme",
          status: "staging",
          pricing: { input: 1, output: 2 },
          supports_tools: false,
          supports_structured_output: true,
          is_model_author: true,
        },
      ],
    });
  });

  it("the defaults: live, the model's token limit, a price, tools and structured output, text in and out", async () => {
    const entry = (await catalog()).find((model) => model.id === "hfkit/tgi-3.2");
    expect(entry?.architecture).toEqual({ input_modalities: ["text"], output_modalities: ["text"] });
    expect(entry?.providers).toEqual([
      {
        provider: "hf-inference",
        status: "live",
        context_length: 4096,
        pricing: { input: 0.1, output: 0.3 },
        supports_tools: true,
        supports_structured_output: true,
        is_model_author: false,
      },
    ]);
  });

  it("hfkit/router-multi: novita without tools or structured output, hf-inference without a price", async () => {
    const entry = (await catalog()).find((model) => model.id === "hfkit/router-multi");
    expect(entry?.providers.map((p: Json) => [p.provider, p.supports_tools, p.pricing])).toEqual([
      ["together", true, { input: 0.6, output: 0.6 }],
      ["novita", false, { input: 0.2, output: 0.8 }],
      ["hf-inference", true, undefined],
    ]);
  });

  it("a provider given with its details still serves the model through the router", async () => {
    const response = await routerChat(hub(), "acme/vision:acme");
    expect([response.status, response.headers.get("x-inference-provider")]).toEqual([200, "acme"]);
    await response.text();
  });
});
