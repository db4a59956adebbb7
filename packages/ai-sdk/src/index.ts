/**
 * `@hfkit/ai-sdk`: the provider for `ai` 6 and 7 (specification v3, which `ai` 6 runs natively and `ai` 7
 * adapts). `@hfkit/ai-sdk/ai5` serves `ai` 5 (v2), `@hfkit/ai-sdk/ai7` gives `ai` 7 its own v4.
 */
export * from "./ai6";
/** The parts of a prompt the models read, and what a task model's call answers (named by the models' signatures). */
export type { OtherPart, ReasoningPart, ToolCallPart, ToolResultPart } from "./spec/types";
export type { TaskAnswer } from "./task";
