import type { Backends, ChatBackend } from "./backend";
import type { ChatCompletionOutput, ChatCompletionStreamOutput, OneChatArgs } from "../../types";
import { openai } from "./openai";
import { tgi } from "./tgi";

/**
 * Every backend, by name: a new server kind is one file and one line here. The transformers pipeline, which few
 * endpoints run, is loaded on its first use (an app that chats with TGI or OpenAI-protocol servers never loads it).
 */
export const BACKENDS: Backends<OneChatArgs, ChatCompletionOutput, ChatCompletionStreamOutput> = {
  openai,
  tgi,
  transformers: () => import("./transformers").then((m): ChatBackend => m.transformers),
};
