// A user's file with ai 5 and @hfkit/ai-sdk/ai5 installed: compiled by types.test.ts against the built types.
import { createHfkit } from "@hfkit/ai-sdk/ai5";
import {
  APICallError,
  createProviderRegistry,
  embed,
  embedMany,
  experimental_generateImage,
  experimental_generateSpeech,
  experimental_transcribe,
  generateText,
  jsonSchema,
  streamText,
  tool,
} from "ai5";

const hf = createHfkit({ accessToken: "hf_x", maxRetries: 0 });
const weather = tool({
  inputSchema: jsonSchema<{ city: string }>({ type: "object" }),
  execute: async ({ city }) => city,
});
export const text = generateText({ model: hf("org/chat"), prompt: "Hi" });
export const stream = streamText({ model: hf.languageModel("org/chat"), prompt: "Hi", tools: { weather } });
export const one = embed({ model: hf.textEmbeddingModel("org/embed"), value: "a" });
export const many = embedMany({ model: hf.embeddingModel("org/embed"), values: ["a"] });
export const image = experimental_generateImage({ model: hf.imageModel("org/image"), prompt: "a cat" });
export const heard = experimental_transcribe({ model: hf.transcriptionModel("org/asr"), audio: new Uint8Array(1) });
export const said = experimental_generateSpeech({ model: hf.speechModel("org/tts"), text: "Hi" });
export const isCall = (e: unknown): boolean => APICallError.isInstance(e);
export const registry = createProviderRegistry({ hfkit: hf });
