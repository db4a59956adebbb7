/** The languages a snippet is written in. */
export type SnippetLanguage = "js" | "python" | "sh";

/** The library (or tool) a snippet calls. */
export type SnippetClient = "hfkit" | "openai" | "huggingface_hub" | "curl";

/** One ready-to-run program. `content` ends with a newline. */
export interface Snippet {
  /** The language it is written in. */
  language: SnippetLanguage;
  /** The library or tool it calls. */
  client: SnippetClient;
  /** The program's text, starting with the install command it needs. */
  content: string;
}

/** A chat template as the Hub stores it: one string, or several named ones. */
export type ChatTemplate =
  | string
  | Array<{
      /** The template's name, e.g. `"default"` or `"tool_use"`. */
      name: string;
      /** The Jinja template. */
      template: string;
    }>;

/** The part of the Hub's model data (`GET /api/models/{id}`) that decides which snippets fit. */
export interface ModelData {
  /** The model id, e.g. `"meta-llama/Llama-3.1-8B-Instruct"`. */
  id: string;
  /** The model's task on the Hub, e.g. `"text-generation"` or `"image-text-to-text"`. */
  pipeline_tag?: string | null;
  /** The model's tags; `"conversational"` marks a chat model. */
  tags?: string[] | null;
  /** The model's configuration, as the Hub summarises it. */
  config?: {
    /** The tokenizer's configuration. */
    tokenizer_config?: {
      /** The chat template, if the model has one (which makes it a chat model). */
      chat_template?: ChatTemplate | null;
    } | null;
  } | null;
}

/** One part of a message's content: text, or an image by URL. */
export type ChatMessageContentPart =
  | {
      /** A text part. */
      type: "text";
      /** The text. */
      text: string;
    }
  | {
      /** An image part. */
      type: "image_url";
      /** The image. */
      image_url: {
        /** An `https:` URL, or a `data:image/…;base64,…` URL. */
        url: string;
      };
    };

/** A message put in a chat snippet. */
export interface ChatMessage {
  /** Who speaks: `"system"`, `"user"`, `"assistant"`. */
  role: string;
  /** The text, or text and image parts. */
  content: string | ChatMessageContentPart[];
}

/** What the snippets send, and where. */
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
  /** Sampling temperature, a number >= 0; sent only when given. */
  temperature?: number;
}
