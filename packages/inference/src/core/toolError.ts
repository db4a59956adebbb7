/**
 * What kept a tool call from an answer. A file of its own, exported by the package and built into the tool
 * runner's chunk as a copy (`tsup.config.ts`): `instanceof` recognises either by its `kind`.
 */
import { InferenceError } from "./errors";
import type { ToolCallStatus } from "../types";

/** A tool call that gave no answer: `status` says why (it threw, timed out, was refused, had bad arguments, or named no tool). */
export class ToolError extends InferenceError {
  static override readonly kind: string = "ToolError";
  /** Why the call gave no answer. */
  declare readonly status: Exclude<ToolCallStatus, "ok">;
  /** The tool's name, as the model called it. */
  declare readonly tool: string;

  /** `message` is what the model is told; `cause`, what the tool threw. */
  constructor(status: Exclude<ToolCallStatus, "ok">, tool: string, message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.status = status;
    this.tool = tool;
  }
}
