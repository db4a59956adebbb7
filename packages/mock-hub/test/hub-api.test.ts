import { describe, expect, it } from "vitest";
import { postJson, useHub } from "./helpers.js";

const hub = useHub({ models: { "acme/classifier": { task: "text-classification" } } });
const card = async (path: string) => {
  const res = await fetch(`${hub().url}/api/models/${path}`);
  return { status: res.status, body: (await res.json()) as Record<string, any> };
};

describe("the Hub's model API: GET /api/models/{id}", () => {
  it("answers a model's card in the Hub's shape: a TGI chat model is text-generation and conversational", async () => {
    const { status, body } = await card("hfkit/tgi-3.2");
    expect(status).toBe(200);
    expect(body).toMatchObject({
      id: "hfkit/tgi-3.2",
      modelId: "hfkit/tgi-3.2",
      author: "hfkit",
      pipeline_tag: "text-generation",
      library_name: "transformers",
      private: false,
      gated: false,
      inference: "warm",
      inferenceProviderMapping: [],
    });
    expect(body._id).toMatch(/^[0-9a-f]{24}$/);
    expect(body.sha).toMatch(/^[0-9a-f]{40}$/);
    expect([typeof body.downloads, typeof body.likes]).toEqual(["number", "number"]);
    expect(body.tags).toEqual(
      expect.arrayContaining(["transformers", "text-generation", "conversational", "text-generation-inference"]),
    );
    // The same answer, every time: the ids and counts are derived from the model's id.
    expect((await card("hfkit/tgi-3.2")).body).toEqual(body);
  });

  it("a model without a chat route is not conversational; a llama.cpp model is a GGUF", async () => {
    expect((await card("hfkit/tgi-no-chat-template")).body.tags).not.toContain("conversational");
    expect((await card("hfkit/transformers-chat")).body.tags).not.toContain("conversational");
    expect((await card("hfkit/llamacpp")).body).toMatchObject({
      library_name: "gguf",
      pipeline_tag: "text-generation",
    });
  });

  it("every model's pipeline tag is the task it answers", async () => {
    const asked = [
      ["hfkit/fill-mask", "fill-mask", { inputs: "Paris is the [MASK] of France." }],
      ["acme/classifier", "text-classification", { inputs: "I like it" }],
      ["hfkit/text-to-image-fal", "text-to-image", { inputs: "a cat" }],
      ["hfkit/embeddings", "feature-extraction", { inputs: "Paris" }],
    ] as const;
    for (const [id, task, input] of asked) {
      expect((await card(id)).body.pipeline_tag, id).toBe(task);
      const answer = await postJson(`${hub().url}/models/${id}`, input);
      expect(answer.status, id).toBe(200);
      const body = answer.headers.get("content-type") === "image/png" ? "png" : await answer.json();
      if (task === "fill-mask") expect(body[0].token_str).toBe("paris");
      if (task === "text-classification") expect(body[0][0].label).toBe("POSITIVE");
      if (task === "text-to-image") expect(body).toBe("png");
      if (task === "feature-extraction") expect(body).toHaveLength(4);
    }
    expect((await card("hfkit/text-to-image-fal")).body.library_name).toBe("diffusers");
  });

  it("expand[] answers the fields named, with _id and id; a field the Hub does not know is a 400", async () => {
    const { body } = await card("hfkit/text-to-image?expand[]=pipeline_tag&expand[]=inferenceProviderMapping");
    expect(Object.keys(body).sort()).toEqual(["_id", "id", "inferenceProviderMapping", "pipeline_tag"]);
    expect(body.inferenceProviderMapping[0]).toEqual({
      provider: "together",
      hfModelId: "hfkit/text-to-image",
      providerId: "hfkit-together/flux",
      task: "text-to-image",
      status: "live",
    });
    const bad = await card("hfkit/tgi-3.2?expand[]=colour");
    expect(bad.status).toBe(400);
    expect(bad.body.error).toMatch(/"expand" must be one of \[author, .*\(got "colour"\)/);
  });

  it("answers a revision's card as the model's; an id that cannot exist is the Hub's 404 (an unknown one has a card)", async () => {
    expect((await card("hfkit/vllm/revision/main")).body).toEqual((await card("hfkit/vllm")).body);
    expect((await card("acme/unknown")).status).toBe(200);
    for (const id of ["acme/has%20space", "acme/a..b", "acme/-dash", "acme--x/y", "a/b/c", `acme/${"x".repeat(92)}`]) {
      expect(await card(id), id).toEqual({ status: 404, body: { error: "Repository not found" } });
    }
  });
});
