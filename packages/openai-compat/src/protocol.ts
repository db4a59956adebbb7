import {
  AbortError,
  AuthenticationError,
  ConnectionError,
  HttpError,
  IncompleteStreamError,
  InferenceError,
  InputError,
  ModelLoadingError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  TimeoutError,
  ValidationError,
} from "@hfkit/inference";

/** OpenAI's error body. */
export interface OpenAIErrorBody {
  /** What went wrong. */
  error: {
    /** A readable description of the error. */
    message: string;
    /** The category, e.g. `"invalid_request_error"`, `"rate_limit_error"`, `"server_error"`, `"timeout"`. */
    type: string;
    /** A finer code when known: TGI's `error_type` (e.g. `"validation"`), the timeout's kind, `"invalid_value"`; else null. */
    code: string | null;
    /** The argument at fault, for a bad argument; else null. */
    param?: string | null;
  };
}

/** One OpenAI-framed event: `data: {json}` and a blank line. */
export function sseEvent(data: unknown): string {
  return `data: ${typeof data === "string" ? data : JSON.stringify(data)}\n\n`;
}

export const DONE_EVENT = "data: [DONE]\n\n";

function typeOf(error: InferenceError): [status: number, type: string] {
  if (error instanceof InputError || error instanceof ValidationError) {
    return [error instanceof HttpError ? error.status : 400, "invalid_request_error"];
  }
  if (error instanceof AuthenticationError) return [401, "authentication_error"];
  if (error instanceof PermissionError) return [403, "permission_error"];
  if (error instanceof NotFoundError) return [404, "not_found_error"];
  if (error instanceof RateLimitError) return [429, "rate_limit_error"];
  if (error instanceof ModelLoadingError) return [503, "model_loading"];
  if (error instanceof HttpError) return [error.status >= 400 ? error.status : 500, "server_error"];
  if (error instanceof TimeoutError) return [504, "timeout"];
  if (error instanceof AbortError) return [499, "aborted"];
  if (error instanceof ConnectionError || error instanceof IncompleteStreamError) return [502, "upstream_error"];
  return [500, "server_error"];
}

/** An hfkit error as OpenAI's status and `{"error": {message, type, code}}` body. */
export function toOpenAIError(error: unknown): {
  /** The HTTP status to answer with, e.g. 422, 429, 503 (loading), 504 (timeout). */
  status: number;
  /** The JSON body to answer with. */
  body: OpenAIErrorBody;
} {
  const e = error instanceof InferenceError ? error : new InferenceError(String((error as Error)?.message ?? error));
  const [status, type] = typeOf(e);
  const code =
    (e instanceof HttpError ? errorTypeOf(e.body) : undefined) ??
    (e instanceof TimeoutError ? e.kind : e instanceof InputError ? "invalid_value" : null);
  const param = e instanceof InputError ? (e.field ?? null) : null;
  return { status, body: { error: { message: e.message, type, code, param } } };
}

function errorTypeOf(body: unknown): string | undefined {
  const t = (body as { error_type?: unknown } | null)?.error_type;
  return typeof t === "string" ? t : undefined;
}

/** A JSON error response that OpenAI clients turn into their own APIError; hfkit already retried. */
export function errorResponse(error: unknown, requestId?: string): Response {
  const { status, body } = toOpenAIError(error);
  const headers: Record<string, string> = { "content-type": "application/json", "x-should-retry": "false" };
  if (requestId) headers["x-request-id"] = requestId;
  return new Response(JSON.stringify(body), { status, headers });
}
