// A user's file with ai 7 and @hfkit/ai-sdk (v3) or @hfkit/ai-sdk/ai7 (v4): compiled by types.test.ts against the built types.
import { hfkit } from "@hfkit/ai-sdk";
import { createHfkit } from "@hfkit/ai-sdk/ai7";
import {
  createProviderRegistry,
  embed,
  embedMany,
  generateImage,
  generateSpeech,
  generateText,
  rerank,
  streamText,
  transcribe,
} from "ai";

const hf = createHfkit({ accessToken: "hf_x", maxRetries: 0 });
export const text = generateText({ model: hfkit("org/chat"), prompt: "Hi" });
export const native = generateText({ model: hf("org/chat"), prompt: "Hi" });
export const stream = streamText({ model: hf.chat("org/chat"), prompt: "Hi" });
export const one = embed({ model: hfkit.embeddingModel("org/embed"), value: "a" });
export const many = embedMany({ model: hf.embeddingModel("org/embed"), values: ["a"] });
export const image = generateImage({ model: hf.imageModel("org/image"), prompt: "a cat" });
export const heard = transcribe({ model: hf.transcriptionModel("org/asr"), audio: new Uint8Array(1) });
export const said = generateSpeech({ model: hf.speechModel("org/tts"), text: "Hi" });
export const ranked = rerank({ model: hf.rerankingModel("org/similar"), query: "q", documents: ["a", "b"] });
export const registry = createProviderRegistry({ hfkit: hf, v3: hfkit });
