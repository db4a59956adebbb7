import { OVERLOADED, streamWithFaults, type Exchange } from "../exchange.js";
import { supports } from "../version.js";

export type TgiRoute = "chat" | "generate";

/** axum before 0.7 wrote `data:` without the space (TGI < 2.1). */
export function dataPrefix(version: string): string {
  return supports(version, "spacedData") ? "data: " : "data:";
}

/** The events of an error inside a 200 stream, framed as the version sends them. */
export function errorEvents(
  version: string,
  route: TgiRoute,
  message: string,
  errorType: string,
  status: number,
): string[] {
  if (route === "generate") return [JSON.stringify({ error: message, error_type: errorType })];
  if (supports(version, "openAiStreamErrors")) {
    return [JSON.stringify({ error: { message, http_status_code: status } }), "[DONE]"];
  }
  const event = JSON.stringify({ error: message, error_type: errorType });
  return supports(version, "done") ? [event, "[DONE]"] : [event];
}

export function validationErrorEvents(version: string, route: TgiRoute, message: string): string[] {
  return errorEvents(version, route, message, "validation", 422);
}

/** Streams `events`; an `overloadedInStream` fault sends TGI's overload error (first, or after `afterChunks` events). */
export function tgiEventStream(exchange: Exchange, route: TgiRoute, events: readonly string[]): Response {
  const { version } = exchange.model;
  return streamWithFaults(exchange, events, dataPrefix(version), () =>
    errorEvents(version, route, OVERLOADED, "overloaded", 429),
  );
}
