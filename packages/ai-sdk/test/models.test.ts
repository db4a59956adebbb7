/** Embeddings, images, transcription, speech and reranking under each AI SDK major, against the mock hub's pipelines. */
import { describe, expect, it } from "vitest";
import { TEXT, useHub, within } from "./helpers";
import { type Major, MAJORS, PNG_SIGNATURE, WAV } from "./majors";

const ctx = useHub();
const TOKEN = "hf_models_secret";
const on = (major: Major, settings = {}) =>
  major.create({ baseUrl: ctx.hub.url, accessToken: TOKEN, maxRetries: 0, ...settings });
/** The hub's embedding of a text: [length / 100, words / 10, first char code / 1000, 0.5]. */
const vector = (text: string) => [text.length / 100, text.split(/\s+/).length / 10, text.charCodeAt(0) / 1000, 0.5];
const posts = () => ctx.hub.requests.filter((r) => r.method === "POST");

describe.each(MAJORS)("$name", (major) => {
  it("embed: one text, one vector (featureExtraction on the model's route)", async () => {
    const { embedding } = await within(
      major.embed({ model: on(major).embeddingModel("hfkit/feature-extraction"), value: "Paris" }),
    );
    expect(embedding).toEqual(vector("Paris"));
    expect(posts()[0]?.path).toMatch(/^\/models\/hfkit\/feature-extraction/);
    expect(posts()[0]?.headers.authorization).toBe(`Bearer ${TOKEN}`);
  });

  it("embedMany: the texts split by maxEmbeddingsPerCall, the vectors in order", async () => {
    const values = ["Paris", "The capital of France", "Lyon"];
    const model = on(major).textEmbeddingModel("hfkit/feature-extraction", {
      maxEmbeddingsPerCall: 2,
      normalize: true,
    });
    const { embeddings } = await within(major.embedMany({ model, values, maxParallelCalls: 1 }));
    expect(embeddings).toEqual(values.map(vector));
    expect(posts().map((r) => r.body)).toEqual([
      { inputs: ["Paris", "The capital of France"], normalize: true },
      { inputs: ["Lyon"], normalize: true },
    ]);
  });

  it("embed: a model that does not embed (404) is the major's APICallError, the token nowhere in it", async () => {
    const error = await within(
      major
        .embed({
          model: on(major, { provider: "hf-inference" }).embeddingModel("org/does-not-exist"),
          value: "Paris",
          maxRetries: 0,
        })
        .catch((e: unknown) => e),
    );
    expect(major.errors.APICallError.isInstance(error)).toBe(true);
    expect((error as { statusCode?: number }).statusCode).toBe(404);
    expect(JSON.stringify({ ...(error as object), message: (error as Error).message })).not.toContain(TOKEN);
  });

  it("maxEmbeddingsPerCall 0 is the major's InvalidArgumentError naming it, before any request", () => {
    let error: unknown;
    try {
      on(major).embeddingModel("hfkit/feature-extraction", { maxEmbeddingsPerCall: 0 });
    } catch (e) {
      error = e;
    }
    expect(major.errors.InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as { argument: string }).argument).toBe("maxEmbeddingsPerCall");
    expect(ctx.hub.requests).toEqual([]);
  });

  it("generateImage: the PNG textToImage answers; size and seed sent as width, height and seed", async () => {
    const { image, warnings } = await within(
      major.generateImage({
        model: on(major).imageModel("hfkit/text-to-image"),
        prompt: "a cat",
        size: "64x32",
        seed: 7,
        aspectRatio: "1:1",
      }),
    );
    expect([...image.uint8Array.slice(0, 4)]).toEqual(PNG_SIGNATURE);
    expect(image.mediaType).toBe("image/png");
    expect(posts()[0]?.body).toEqual({ inputs: "a cat", parameters: { width: 64, height: 32, seed: 7 } });
    expect(JSON.stringify(warnings)).toContain("aspectRatio");
  });

  it("generateImage: a size that is not {width}x{height} is the major's InvalidArgumentError naming it, before any request", async () => {
    const size = "large" as `${number}x${number}`;
    const error = await within(
      major
        .generateImage({ model: on(major).imageModel("hfkit/text-to-image"), prompt: "a cat", size })
        .catch((e: unknown) => e),
    );
    expect(major.errors.InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as { argument: string }).argument).toBe("size");
    expect(ctx.hub.requests).toEqual([]);
  });

  it("transcribe: the audio's bytes sent as the body, the text heard", async () => {
    const result = await within(
      major.transcribe({ model: on(major).transcriptionModel("hfkit/automatic-speech-recognition"), audio: WAV }),
    );
    expect(result.text).toBe(TEXT);
    expect(posts()[0]?.path).toBe("/models/hfkit/automatic-speech-recognition");
    expect(posts()[0]?.headers["content-type"]).toMatch(/^audio\/wav/);
  });

  it("transcribe: timed chunks are the segments, the last one's end the duration", async () => {
    const answer = {
      text: "Bonjour. Au revoir.",
      chunks: [
        { text: "Bonjour.", timestamp: [0, 1.5] },
        { text: "Au revoir.", timestamp: [1.5, 3.25] },
      ],
    };
    const fetch = async () => new Response(JSON.stringify(answer), { headers: { "content-type": "application/json" } });
    const result = await within(
      major.transcribe({
        model: on(major, { fetch }).transcriptionModel("hfkit/automatic-speech-recognition"),
        audio: WAV,
      }),
    );
    expect(result.segments).toEqual([
      { text: "Bonjour.", startSecond: 0, endSecond: 1.5 },
      { text: "Au revoir.", startSecond: 1.5, endSecond: 3.25 },
    ]);
    expect(result.durationInSeconds).toBe(3.25);
  });

  it("a list of providers (chat failover) for a model of another type is the major's InvalidArgumentError naming provider", () => {
    let error: unknown;
    try {
      on(major, { provider: ["fal-ai", "replicate"] }).imageModel("hfkit/text-to-image");
    } catch (e) {
      error = e;
    }
    expect(major.errors.InvalidArgumentError.isInstance(error)).toBe(true);
    expect((error as { argument: string }).argument).toBe("provider");
    expect(
      on(major, { provider: ["fal-ai", "replicate"] }).imageModel("hfkit/text-to-image", { provider: "fal-ai" })
        .modelId,
    ).toBe("hfkit/text-to-image");
  });

  it("generateSpeech: the WAV textToSpeech answers; voice warned about, not sent", async () => {
    const result = await within(
      major.generateSpeech({ model: on(major).speechModel("hfkit/text-to-speech"), text: "Hello", voice: "alloy" }),
    );
    expect([...result.audio.uint8Array]).toEqual([...WAV]);
    expect(result.audio.mediaType).toBe("audio/wav");
    expect(posts()[0]?.body).toEqual({ inputs: "Hello" });
    expect(JSON.stringify(result.warnings)).toContain("voice");
  });
});

describe.each(MAJORS.filter((major) => major.rerank !== undefined))("$name", (major) => {
  it("rerank: sentenceSimilarity's scores, most similar first, topN kept", async () => {
    const rerank = major.rerank!;
    const documents = ["Lyon is in France.", TEXT, "Paris"];
    const result = await within(
      rerank({ model: on(major).rerankingModel("hfkit/sentence-similarity"), query: TEXT, documents, topN: 2 }),
    );
    expect(result.ranking.map((r) => r.originalIndex)).toEqual([1, 0]);
    expect(result.ranking[0]?.score).toBe(1);
    expect(posts()[0]?.body).toEqual({ inputs: { source_sentence: TEXT, sentences: documents } });
  });
});

it("ai 5 has no rerank: the /ai5 provider's rerankingModel is a NoSuchModelError", () => {
  expect(() => MAJORS[0]!.create({}).rerankingModel("hfkit/sentence-similarity")).toThrow(
    expect.objectContaining({ name: "AI_NoSuchModelError" }),
  );
});
