import { ALL_EXCHANGES, contentType, type Exchange, requestJson } from "./fixtures";
import { sseEvents } from "./reference";

/**
 * Every recorded exchange sorted by what it can test. Each one lands in exactly one group; those
 * the SDK has no call for are listed with the reason.
 */
export type Kind =
  /** 2xx event stream of chat chunks. */
  | "chat-stream"
  /** 2xx chat completion JSON. */
  | "chat-answer"
  /** Non-2xx answer to a chat request. */
  | "chat-error"
  /** 2xx event stream holding an error object (recorded on generate_stream: TGI's in-stream validation error). */
  | "stream-error"
  /** Non-2xx recorded on another task's route; replayed on the chat route for the error mapping only. */
  | "route-error"
  /** The transformers-pipeline steps of a recorded chat call on a model TGI does not serve. */
  | "chat-fallback"
  | "not-covered";

export interface Entry {
  ex: Exchange;
  kind: Kind;
  /** Why a `not-covered` exchange is not replayed. */
  reason?: string;
}

const isOk = (status: number): boolean => status >= 200 && status < 300;

function classify(ex: Exchange): Entry {
  const url = new URL(ex.url);
  if (url.hostname === "huggingface.co" && url.pathname.startsWith("/api/models/")) {
    return { ex, kind: "not-covered", reason: "Hub API model look-up (the recorder's client resolving a provider), no inference call" };
  }
  const req = requestJson(ex);
  const isChat = url.pathname.endsWith("/chat/completions") || (req !== undefined && "messages" in req);
  // A chat test's cassette whose other requests are `{inputs, parameters}`: the client fell back to the pipeline.
  if (!isChat && ex.id.includes("test_chat_completion")) return { ex, kind: "chat-fallback" };
  if (isOk(ex.status) && contentType(ex).includes("text/event-stream")) {
    const data = sseEvents(ex.body).map((e) => e.data);
    if (data.some((d) => d.includes('"choices"'))) return { ex, kind: "chat-stream" };
    if (data.some((d) => d.includes('"error"'))) return { ex, kind: "stream-error" };
    return { ex, kind: "not-covered", reason: "text-generation stream (generate_stream tokens): not a chat call" };
  }
  if (isOk(ex.status)) {
    const answer = safeJson(ex.body);
    if (isChat && isChatAnswer(answer)) return { ex, kind: "chat-answer" };
    if (url.pathname.endsWith("/v1/completions")) {
      return { ex, kind: "not-covered", reason: "OpenAI text completion (/v1/completions): not a chat call" };
    }
    return { ex, kind: "not-covered", reason: "text generation / image-to-text answer ([{generated_text}]): not a chat call" };
  }
  if (isChat) return { ex, kind: "chat-error" };
  if (ex.body.includes("model_kwargs")) {
    return { ex, kind: "not-covered", reason: "text generation on the transformers pipeline (400 on unused `model_kwargs`): not a chat call" };
  }
  return { ex, kind: "route-error" };
}

function safeJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
}

function isChatAnswer(value: unknown): boolean {
  return typeof value === "object" && value !== null && Array.isArray((value as { choices?: unknown }).choices);
}

export const CATALOG: Entry[] = ALL_EXCHANGES.map(classify);

export const entries = (kind: Kind): Exchange[] => CATALOG.filter((e) => e.kind === kind).map((e) => e.ex);

/** A short test title for an exchange: where it is recorded and what answered. */
export function title(ex: Exchange): string {
  const { host, pathname } = new URL(ex.url);
  return `${ex.id} ${ex.status} ${host}${pathname}`;
}
