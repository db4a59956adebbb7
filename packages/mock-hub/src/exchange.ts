import type { EventPlan } from "./event-stream.js";
import type { ResolvedModel } from "./models.js";
import type { StreamFault } from "./types.js";

/** One request as a backend sees it: the body text, the model, and the way to open an event stream. */
export interface Exchange {
  request: Request;
  text: string;
  model: ResolvedModel;
  /** Uses the stream faults scripted for this model (each counts as applied). */
  takeStreamFaults(): StreamFault[];
  /** A 200 `text/event-stream` response writing `plan` under `faults`. */
  eventStream(plan: EventPlan, faults: readonly StreamFault[]): Response;
}

/** The message of the `overloadedInStream` fault, on every backend. */
export const OVERLOADED = "Model is overloaded";

type Overloaded = Extract<StreamFault, { type: "overloadedInStream" }>;

/** Streams `events` under the model's stream faults; `overloadedInStream` puts `errorEvents()` after its `afterChunks` events. */
export function streamWithFaults(exchange: Exchange, events: readonly string[], dataPrefix: string, errorEvents: () => string[]): Response {
  const faults = exchange.takeStreamFaults();
  const overloaded = faults.find((fault): fault is Overloaded => fault.type === "overloadedInStream");
  const body = overloaded ? [...events.slice(0, overloaded.afterChunks ?? 0), ...errorEvents()] : events;
  return exchange.eventStream({ events: body, dataPrefix }, faults);
}
