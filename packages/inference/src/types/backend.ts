/**
 * What serves a model: TGI (text-generation-inference), the transformers pipeline, or any other
 * OpenAI-protocol server (`"openai"`: the HF router and its providers, vLLM, SGLang, llama.cpp's
 * server, Ollama's OpenAI route).
 */
export type Backend = "tgi" | "transformers" | "openai";
