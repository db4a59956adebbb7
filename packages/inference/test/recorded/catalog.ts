import { ALL_EXCHANGES, contentType, type Exchange, requestJson, TAPE_FILES } from "./fixtures";
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
  /**
   * 2xx event stream holding an error object (recorded on generate_stream: TGI's in-stream validation
   * error); replayed on the chat route and on its own (textGenerationStream).
   */
  | "stream-error"
  /**
   * Non-2xx recorded on another task's route; replayed on the chat route for the error mapping, and
   * those of a model's root (TGI's generate 422) on their own route too (textGeneration).
   */
  | "route-error"
  /** The transformers-pipeline steps of a recorded chat call on a model TGI does not serve. */
  | "chat-fallback"
  /** 2xx `[{generated_text, details?}]` answer to a `generate` request (`{inputs, parameters}` on a model's root). */
  | "generate-answer"
  /** 2xx event stream of `generate_stream` token events. */
  | "generate-stream"
  /** Non-2xx answer to a `generate` request (the transformers pipeline's 400 on unused `model_kwargs`). */
  | "generate-error"
  | "not-covered";

export interface Entry {
  ex: Exchange;
  kind: Kind;
  /** Why a `not-covered` exchange is not replayed. */
  reason?: string;
}

const isOk = (status: number): boolean => status >= 200 && status < 300;

/** Why the exchanges the SDK has no call for are not replayed (each reason is checked in not-covered.test.ts). */
export const NOT_COVERED = {
  hubApi:
    "Hub API model look-up (GET /api/models/{id}): the recorder's client resolving a provider before a chat call. " +
    "The SDK's chat never looks a model up (the router resolves it); its tasks on a provider do, and the recorded " +
    "answers are read by them in not-covered.test.ts",
  completions:
    "OpenAI text completion (a provider's /v1/completions, called with the provider's own key): replayed through " +
    "textGeneration on that provider in not-covered.test.ts (the Hub mapping answered there; the tapes do not keep it)",
  imageToText:
    "image-to-text answer: the request body was an image (the tapes keep text bodies only); replayed through " +
    "imageToText with an image of our own in not-covered.test.ts",
} as const;

/** A model's root, `{base}/models/{org/name}`: where TGI's `generate` and the transformers pipeline answer. */
export const isModelRoot = (pathname: string): boolean =>
  /\/models\/[^/]+(\/[^/]+)?$/.test(pathname) && !pathname.includes("/v1/");

function classify(ex: Exchange): Entry {
  const url = new URL(ex.url);
  if (url.hostname === "huggingface.co" && url.pathname.startsWith("/api/models/")) {
    return { ex, kind: "not-covered", reason: NOT_COVERED.hubApi };
  }
  const req = requestJson(ex);
  const isChat = url.pathname.endsWith("/chat/completions") || (req !== undefined && "messages" in req);
  // A chat test's cassette whose other requests are `{inputs, parameters}`: the client fell back to the pipeline.
  if (!isChat && ex.id.includes("test_chat_completion")) return { ex, kind: "chat-fallback" };
  if (isOk(ex.status) && contentType(ex).includes("text/event-stream")) {
    const data = sseEvents(ex.body).map((e) => e.data);
    if (data.some((d) => d.includes('"choices"'))) return { ex, kind: "chat-stream" };
    if (data.some((d) => d.includes('"error"'))) return { ex, kind: "stream-error" };
    if (isModelRoot(url.pathname) && data.length > 0 && data.every((d) => d.includes('"token"')))
      return { ex, kind: "generate-stream" };
    return { ex, kind: "not-covered", reason: "an event stream of neither chat chunks nor generate tokens" };
  }
  if (isOk(ex.status)) {
    const answer = safeJson(ex.body);
    if (isChat && isChatAnswer(answer)) return { ex, kind: "chat-answer" };
    if (url.pathname.endsWith("/v1/completions")) return { ex, kind: "not-covered", reason: NOT_COVERED.completions };
    if (isModelRoot(url.pathname) && isGenerateAnswer(answer)) {
      // huggingface.js records every text body it sends: a tape without one sent a binary body (an image).
      if (ex.requestBody === null && isTape(ex)) return { ex, kind: "not-covered", reason: NOT_COVERED.imageToText };
      return { ex, kind: "generate-answer" };
    }
    return { ex, kind: "not-covered", reason: "a 2xx answer of no shape the SDK reads" };
  }
  if (isChat) return { ex, kind: "chat-error" };
  if (isModelRoot(url.pathname) && ex.body.includes("model_kwargs")) return { ex, kind: "generate-error" };
  return { ex, kind: "route-error" };
}

const isTape = (ex: Exchange): boolean => TAPE_FILES.some((file) => ex.id.startsWith(`${file}#`));

/** TGI's and the pipeline's `generate` answer: `[{generated_text: string, details?}]`. */
function isGenerateAnswer(value: unknown): boolean {
  const first = Array.isArray(value) ? (value[0] as { generated_text?: unknown } | undefined) : undefined;
  return typeof first?.generated_text === "string";
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
