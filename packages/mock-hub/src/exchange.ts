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
