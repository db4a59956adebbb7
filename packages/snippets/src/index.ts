export { getSnippets } from "./getSnippets";
export { isChatModel, type ModelKind, modelKind } from "./model";
export { runSnippetCommand, type SnippetCommandIO } from "./command";
export type {
  ChatMessage,
  ChatMessageContentPart,
  ChatTemplate,
  ModelData,
  Snippet,
  SnippetClient,
  SnippetLanguage,
  SnippetOptions,
} from "./types";
