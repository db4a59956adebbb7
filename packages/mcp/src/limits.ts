/**
 * What one connection may read from its server, whichever the transport: while connecting, `maxListBytes` in all;
 * then each message on its own (a call's answer from `maxResultBytes`). Both transports' readers ask this.
 */
import type { JSONRPCMessage } from "@modelcontextprotocol/sdk/types.js";
import { ErrorCode, McpError } from "@modelcontextprotocol/sdk/types.js";
import { answerBytes, McpLimitError } from "./errors";
import type { Settings } from "./options";
import type { Secrets } from "./redact";

type RequestId = string | number;

/** The bytes read from one server, and the bounds they are read within. */
export class Reading {
  /** Bytes read while connecting. */
  private used = 0;
  private connecting = true;
  private readonly breaker = new AbortController();
  /** Aborted, with an `McpLimitError` as its reason, when the server passed a bound that ends the connection. */
  readonly broken: AbortSignal = this.breaker.signal;
  /** The most bytes of a call's answer. */
  readonly callAnswerBytes: number;
  /** The most bytes of any one message (a line over stdio, an event or a JSON answer over HTTP). */
  readonly messageBytes: number;

  constructor(
    private readonly settings: Pick<Settings, "maxListBytes" | "maxResultBytes">,
    private readonly who: { server: string; secrets: Secrets },
  ) {
    this.callAnswerBytes = answerBytes(settings.maxResultBytes);
    this.messageBytes = Math.max(settings.maxListBytes, this.callAnswerBytes);
  }

  /** Connecting is over: nothing is counted any more, each message has its own bound. */
  connected(): void {
    this.connecting = false;
  }

  /** Counts `bytes` read; true when, connecting, they pass `maxListBytes`. */
  count(bytes: number): boolean {
    if (!this.connecting) return false;
    this.used += bytes;
    return this.used > this.settings.maxListBytes;
  }

  /** The most bytes of one message answering a request of `method` (any message when undefined). */
  limitFor(method: string | undefined): number {
    return method === "tools/call" ? this.callAnswerBytes : this.messageBytes;
  }

  /** The error for a message past its bound, answering a request of `method` (a call of `tool`). */
  tooLarge(method?: string, tool?: string): McpLimitError {
    const { server, secrets } = this.who;
    if (this.connecting) return new McpLimitError("maxListBytes", this.settings.maxListBytes, { server }, secrets);
    if (method === "tools/call")
      return new McpLimitError("maxResultBytes", this.settings.maxResultBytes, { server, tool }, secrets);
    return new McpLimitError("messageBytes", this.messageBytes, { server }, secrets);
  }

  /** Ends the connection with `error`: every request waiting fails with it, and the server is stopped. */
  break(error: McpLimitError): void {
    if (!this.broken.aborted) this.breaker.abort(error);
  }
}

/** The answer that ends request `id` with `error`, in place of the one that passed its bound. */
export function limitAnswer(id: RequestId, error: McpLimitError): JSONRPCMessage {
  return {
    jsonrpc: "2.0",
    id,
    error: { code: ErrorCode.InternalError, message: error.message, data: { cause: error } },
  };
}

/** The `McpLimitError` a reader put in an answer or threw (a server cannot send one: JSON makes no such object). */
export function carriedLimit(error: unknown): McpLimitError | undefined {
  if (error instanceof McpLimitError) return error;
  if (!(error instanceof McpError) || typeof error.data !== "object" || error.data === null) return undefined;
  const cause: unknown = Reflect.get(error.data, "cause");
  return cause instanceof McpLimitError ? cause : undefined;
}

/** The method of a JSON-RPC request and the tool a call names; undefined for anything else. */
export function requestOf(message: unknown): { id: RequestId; method: string; tool: string | undefined } | undefined {
  if (typeof message !== "object" || message === null) return undefined;
  const { id, method, params } = message as { id?: unknown; method?: unknown; params?: unknown };
  if ((typeof id !== "string" && typeof id !== "number") || typeof method !== "string") return undefined;
  const name: unknown = typeof params === "object" && params !== null ? Reflect.get(params, "name") : undefined;
  return { id, method, tool: method === "tools/call" && typeof name === "string" ? name : undefined };
}
