/** The languages a snippet is written in. */
export type SnippetLanguage = "js" | "python" | "sh";

/** The library (or tool) a snippet calls. */
export type SnippetClient = "hfkit" | "openai" | "huggingface_hub" | "curl";

/** One ready-to-run program. `content` ends with a newline. */
export interface Snippet {
  language: SnippetLanguage;
  client: SnippetClient;
  content: string;
}

/** A chat template as the Hub stores it: one string, or several named ones. */
export type ChatTemplate = string | Array<{ name: string; template: string }>;

/** The part of the Hub's model data (`GET /api/models/{id}`) that decides which snippets fit. */
export interface ModelData {
  id: string;
  pipeline_tag?: string | null;
  tags?: string[] | null;
  config?: { tokenizer_config?: { chat_template?: ChatTemplate | null } | null } | null;
}

export type ChatMessageContentPart = { type: "text"; text: string } | { type: "image_url"; image_url: { url: string } };

export interface ChatMessage {
  role: string;
  content: string | ChatMessageContentPart[];
}

export interface SnippetOptions {
  /** Put in the code as is; without it the code holds the placeholder `hf_***`. */
  accessToken?: string;
  /** An hf-inference-style base: calls go to `{baseUrl}/models/{id}/...`. */
  baseUrl?: string;
  /** A dedicated endpoint (wins over `baseUrl`): calls go to `{endpointUrl}/v1/...` or its root. */
  endpointUrl?: string;
  /** Chat snippets stream the answer (default `true`); the cURL snippet never does. */
  streaming?: boolean;
  /** Default: one user message, "What is the capital of France?". */
  messages?: ChatMessage[];
  /** Default 500 (`max_new_tokens` for text generation). */
  max_tokens?: number;
  temperature?: number;
}
