import {
  AuthenticationError,
  HttpError,
  type HttpErrorInit,
  ModelLoadingError,
  NotFoundError,
  PermissionError,
  RateLimitError,
  ServerError,
  ValidationError,
} from "./errors";
import { redactText, redactUrl, redactValue } from "./redact";

type HttpErrorClass = new (message: string, init: HttpErrorInit & { estimatedTime?: number }) => HttpError;

/** What is known of a failed answer, over HTTP or inside a 200 stream, as it came (redacted here). */
export interface ErrorSource extends Omit<HttpErrorInit, "cause"> {
  /** The error arrived inside a 200 event stream. */
  inStream?: boolean;
  /** The access token: redacted from everything the error keeps. */
  secret?: string;
}

/** TGI's `error_type`s: the class of each, and its HTTP status (router `lib.rs`, used for in-stream errors). */
const BY_ERROR_TYPE: Record<string, readonly [HttpErrorClass, number]> = {
  validation: [ValidationError, 422],
  template_error: [ValidationError, 422],
  tool_error: [ValidationError, 422],
  missing_template_variable: [ValidationError, 422],
  overloaded: [RateLimitError, 429],
  generation: [ServerError, 424],
  incomplete_generation: [ServerError, 500],
  incomplete_generation_stream: [ServerError, 500],
};

const BY_STATUS: Record<number, HttpErrorClass> = {
  400: ValidationError,
  401: AuthenticationError,
  403: PermissionError,
  404: NotFoundError,
  422: ValidationError,
  429: RateLimitError,
};

interface ErrorFields {
  message: string;
  errorType: string | undefined;
  status: number | undefined;
  estimatedTime: number | undefined;
}

/** Reads the fields of every error shape seen: TGI's two, OpenAI's, the proxy's, plain text. */
export function readErrorFields(body: unknown): ErrorFields {
  const fields: ErrorFields = { message: "", errorType: undefined, status: undefined, estimatedTime: undefined };
  if (typeof body === "string") {
    fields.message = body.trim().slice(0, 500);
    return fields;
  }
  if (typeof body !== "object" || body === null) return fields;
  const b: { error?: unknown; message?: unknown; detail?: unknown; error_type?: unknown; estimated_time?: unknown } =
    body;
  const err = b.error;
  if (typeof err === "string") fields.message = err;
  else if (Array.isArray(err)) fields.message = err.map(String).join("; ");
  else if (typeof err === "object" && err !== null) {
    const e: { message?: unknown; http_status_code?: unknown; code?: unknown; type?: unknown } = err;
    fields.message = typeof e.message === "string" ? e.message : JSON.stringify(e);
    // TGI's `http_status_code`; vLLM's and OpenAI's numeric `code`.
    const code = typeof e.http_status_code === "number" ? e.http_status_code : e.code;
    if (typeof code === "number" && code >= 400 && code < 600) fields.status = code;
    if (typeof e.type === "string") fields.errorType = e.type;
  } else if (typeof b.message === "string") fields.message = b.message;
  else if (b.detail !== undefined) fields.message = detailMessage(b.detail);
  if (typeof b.error_type === "string") fields.errorType = b.error_type;
  if (typeof b.estimated_time === "number" && b.estimated_time >= 0) fields.estimatedTime = b.estimated_time;
  return fields;
}

/** FastAPI's `{"detail": "..." | [{loc, msg}]}`, as some OpenAI-compatible servers answer. */
function detailMessage(detail: unknown): string {
  if (typeof detail === "string") return detail;
  if (!Array.isArray(detail)) return JSON.stringify(detail);
  return detail
    .map((d: { loc?: unknown[]; msg?: unknown }) =>
      Array.isArray(d?.loc) ? `${d.loc.join(".")}: ${String(d.msg)}` : String(d?.msg ?? JSON.stringify(d)),
    )
    .join("; ");
}

function classify(f: ErrorFields, status: number, inStream: boolean): HttpErrorClass {
  const byType = f.errorType === undefined ? undefined : BY_ERROR_TYPE[f.errorType]?.[0];
  if (byType) return byType;
  if (/model is overloaded/i.test(f.message)) return RateLimitError;
  if (/currently loading/i.test(f.message)) return ModelLoadingError;
  if (status === 503 && f.estimatedTime !== undefined) return ModelLoadingError;
  const byStatus = BY_STATUS[status];
  if (byStatus) return byStatus;
  if (status >= 500 || inStream) return ServerError;
  return HttpError;
}

const TOO_LARGE_HINT = " The serverless API will not load it: use a dedicated Inference Endpoint or another provider.";
const NO_PROVIDER_HINT =
  " Enable a provider that serves it at https://huggingface.co/settings/inference-providers, or name one as `provider` or a `:provider` suffix.";

/** The one table that maps HTTP answers and in-stream errors to typed errors; no field keeps the token. */
export function toHttpError(src: ErrorSource): HttpError {
  const { inStream, secret, ...init } = src;
  const body = redactValue(src.body, secret);
  const f = readErrorFields(body);
  const status = inStream
    ? (f.status ?? (f.errorType ? BY_ERROR_TYPE[f.errorType]?.[1] : undefined) ?? 500)
    : src.status;
  const Cls = classify(f, status, inStream === true);
  let message = f.message || `The server answered HTTP ${status}`;
  if (status === 403 && /too large/i.test(message)) message += TOO_LARGE_HINT;
  // A 401 to a request that sent no credentials: say so, and how to set a token (HF_TOKEN: every caller reads it).
  if (status === 401 && !secret && !/authorization/i.test(Object.keys(init.requestHeaders ?? {}).join())) {
    message += " No token was sent: set HF_TOKEN to a token from https://huggingface.co/settings/tokens.";
  }
  const routing = /not supported by (any )?provider/i.test(message);
  if (/not supported by any provider/i.test(message)) message += NO_PROVIDER_HINT;
  const provider = src.provider === undefined ? undefined : redactText(src.provider, secret).slice(0, 64);
  const from = provider ? ` from provider ${provider}` : "";
  const where = inStream ? `inside the stream${from}` : `HTTP ${status}${from}`;
  const requestId = src.requestId === undefined ? undefined : redactText(src.requestId, secret);
  const id = requestId ? `, request id ${requestId}` : "";
  return new Cls(`${message} (${where}${id})`, {
    ...init,
    body,
    status,
    requestId,
    url: redactUrl(src.url),
    requestBody: redactValue(src.requestBody, secret),
    estimatedTime: f.estimatedTime,
    provider,
    routing,
    httpStatus: inStream ? 200 : undefined,
  });
}
