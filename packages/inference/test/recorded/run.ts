import { inspect } from "node:util";
import { expect } from "vitest";
import * as sdk from "../../dist/index.js";
import type { Exchange } from "./fixtures";
import { header } from "./fixtures";
import { type Outcome, serverMessage } from "./reference";
import { TOKEN } from "./plan";

export interface Drained {
  chunks: unknown[];
  error: unknown;
  /** Whether the iterator ended by itself (done) rather than by throwing. */
  completed: boolean;
}

/** Reads an iterator to its end, keeping the chunks and the error that ended it, if any. */
export async function drain(stream: AsyncIterable<unknown>): Promise<Drained> {
  const chunks: unknown[] = [];
  try {
    for await (const c of stream) chunks.push(c);
    return { chunks, error: undefined, completed: true };
  } catch (error) {
    return { chunks, error, completed: false };
  }
}

/** Settles like `promise`, or rejects once `ms` have passed: a hang is a failure, not a runner timeout. */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: ReturnType<typeof setTimeout> | undefined;
  const limit = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what}: did not settle within ${ms} ms`)), ms);
  });
  return Promise.race([promise, limit]).finally(() => clearTimeout(timer));
}

type ErrorClass = abstract new (...args: never[]) => Error;

/** The typed error a stream's outcome calls for (ARCHITECTURE.md, "Errors"). */
export function expectOutcome(got: Drained, outcome: Outcome, requestId: string | undefined): void {
  if (outcome.kind === "complete") {
    if (got.error) throw got.error;
    expect(got.completed).toBe(true);
    return;
  }
  expect(got.completed, "the stream completed where it had to fail").toBe(false);
  if (outcome.kind === "incomplete") {
    expect(got.error).toBeInstanceOf(sdk.IncompleteStreamError);
    return;
  }
  expectHttpError(got.error, { status: inStreamStatus(outcome.body), body: outcome.body, requestId, inStream: true });
}

/** TGI's status for an in-stream error: its `http_status_code`, else that of its `error_type`. */
function inStreamStatus(body: unknown): number {
  const b = body as { error?: { http_status_code?: number }; error_type?: string };
  if (typeof b.error === "object" && typeof b.error?.http_status_code === "number") return b.error.http_status_code;
  const byType: Record<string, number> = {
    validation: 422,
    template_error: 422,
    tool_error: 422,
    overloaded: 429,
    generation: 424,
  };
  const status = b.error_type ? byType[b.error_type] : undefined;
  if (status === undefined) throw new Error(`no expectation written for the in-stream error ${JSON.stringify(body)}`);
  return status;
}

/**
 * The class each recorded error must map to: `error_type` first, then the status
 * (ARCHITECTURE.md: validation / template_error -> ValidationError; 400 and 422 ValidationError,
 * 401 AuthenticationError, 404 NotFoundError, 5xx ServerError, any other status the HttpError base).
 */
export function expectedClass(status: number, body: unknown): { cls: ErrorClass; name: string } {
  const type = (body as { error_type?: unknown } | null)?.error_type;
  if (type === "validation" || type === "template_error") return { cls: sdk.ValidationError, name: "ValidationError" };
  if (status === 400 || status === 422) return { cls: sdk.ValidationError, name: "ValidationError" };
  if (status === 401) return { cls: sdk.AuthenticationError, name: "AuthenticationError" };
  if (status === 404) return { cls: sdk.NotFoundError, name: "NotFoundError" };
  if (status >= 500) return { cls: sdk.ServerError, name: "ServerError" };
  if (status === 421) return { cls: sdk.HttpError, name: "HttpError" };
  throw new Error(`no expectation written for HTTP ${status}`);
}

export interface ExpectedHttpError {
  status: number;
  body: unknown;
  requestId: string | undefined;
  inStream?: boolean;
}

/** The typed error, its status, body and request id as recorded, and no trace of the token. */
export function expectHttpError(error: unknown, want: ExpectedHttpError): void {
  const { cls, name } = expectedClass(want.status, want.body);
  expect(error, `expected a ${name}, got ${String(error)}`).toBeInstanceOf(cls);
  const e = error as sdk.HttpError;
  expect(e.name).toBe(name);
  expect(e).toBeInstanceOf(sdk.HttpError);
  expect(e).toBeInstanceOf(sdk.InferenceError);
  expect(e.status).toBe(want.status);
  expect(e.body).toStrictEqual(want.body);
  expect(e.requestId).toBe(want.requestId);
  // `httpResponse.status` is the status the answer came with: 200 for an error inside a stream.
  expect(e.httpResponse).toStrictEqual({
    status: want.inStream ? 200 : want.status,
    requestId: want.requestId ?? "",
    body: want.body,
  });
  const said = serverMessage(want.body);
  if (said) expect(e.message).toContain(said.slice(0, 120));
  expectNoToken(error);
}

/** The token is nowhere in the error: message, String(), JSON, inspection, the whole cause chain. */
export function expectNoToken(error: unknown): void {
  const seen = new Set<unknown>();
  for (let e: unknown = error; e !== undefined && e !== null && !seen.has(e); e = (e as { cause?: unknown }).cause) {
    seen.add(e);
    const views = [
      (e as { message?: unknown }).message,
      String(e),
      safeStringify(e),
      inspect(e, { depth: 10, showHidden: true }),
      (e as { stack?: unknown }).stack,
    ];
    for (const view of views) expect(String(view)).not.toContain(TOKEN);
  }
  expect(seen.size).toBeGreaterThan(0);
}

function safeStringify(value: unknown): string {
  try {
    return JSON.stringify(value) ?? "";
  } catch (e) {
    return `unserialisable: ${String(e)}`;
  }
}

/** The request id the recorded response carried, if any. */
export const recordedRequestId = (ex: Exchange): string | undefined => header(ex, "x-request-id");
