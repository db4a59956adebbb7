import type { EventPlan } from "./event-stream.js";
import type { ResolvedModel } from "./models.js";
import type { StreamFault, StructuredOutputFault } from "./types.js";

/** One request as a backend sees it: the body text, the model, and the way to open an event stream. */
export interface Exchange {
  request: Request;
  text: string;
  model: ResolvedModel;
  /** Uses the stream faults scripted for this model (each counts as applied). */
  takeStreamFaults(): StreamFault[];
  /** Uses the first structured-answer fault scripted for this model, if any: only an answer written for a schema asks. */
  takeStructuredFault(): StructuredOutputFault | undefined;
  /** A 200 `text/event-stream` response writing `plan` under `faults`. */
  eventStream(plan: EventPlan, faults: readonly StreamFault[]): Response;
}

/** The message of the `overloadedInStream` fault, on every backend. */
export const OVERLOADED = "Model is overloaded";

type Overloaded = Extract<StreamFault, { type: "overloadedInStream" }>;
type ResponseFailed = Extract<StreamFault, { type: "responseFailed" }>;
type InStreamFault = Overloaded | ResponseFailed;

/**
 * Streams `events` under the model's stream faults: `overloadedInStream` puts `errorEvents(sent)` after its
 * `afterChunks` events, and `responseFailed` (on the Responses route, which passes `failedEvents`) puts `failedEvents`'s.
 */
export function streamWithFaults(
  exchange: Exchange,
  events: readonly string[],
  dataPrefix: string,
  errorEvents: (sent: number) => string[],
  failedEvents?: (fault: ResponseFailed, sent: number) => string[],
): Response {
  const faults = exchange.takeStreamFaults();
  const fault = faults.find(
    (f): f is InStreamFault =>
      f.type === "overloadedInStream" || (f.type === "responseFailed" && failedEvents !== undefined),
  );
  const sent = fault?.afterChunks ?? 0;
  const tail =
    fault === undefined ? [] : fault.type === "responseFailed" ? failedEvents!(fault, sent) : errorEvents(sent);
  const body = fault ? [...events.slice(0, sent), ...tail] : events;
  return exchange.eventStream({ events: body, dataPrefix }, faults);
}
