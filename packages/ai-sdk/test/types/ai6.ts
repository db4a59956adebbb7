// A user's file with ai 6 and @hfkit/ai-sdk installed: compiled by types.test.ts against the built types.
import { createHfkit, hfkit } from "@hfkit/ai-sdk";
import {
  createProviderRegistry,
  embed,
  embedMany,
  experimental_generateSpeech,
  experimental_transcribe,
  generateImage,
  generateText,
  rerank,
  streamText,
} from "ai6";

const hf = createHfkit({ accessToken: "hf_x", maxRetries: 0 });
export const text = generateText({ model: hfkit("org/chat"), prompt: "Hi" });
export const stream = streamText({ model: hf.chat("org/chat"), prompt: "Hi" });
export const one = embed({ model: hf.embeddingModel("org/embed"), value: "a" });
export const many = embedMany({ model: hf.embeddingModel("org/embed"), values: ["a"] });
export const image = generateImage({ model: hf.imageModel("org/image"), prompt: "a cat" });
export const heard = experimental_transcribe({ model: hf.transcriptionModel("org/asr"), audio: new Uint8Array(1) });
export const said = experimental_generateSpeech({ model: hf.speechModel("org/tts"), text: "Hi" });
export const ranked = rerank({ model: hf.rerankingModel("org/similar"), query: "q", documents: ["a", "b"] });
export const registry = createProviderRegistry({ hfkit: hf });
