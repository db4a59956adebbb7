/** Where the client's warnings go by default (`setLogger`, as in `@huggingface/inference`), and warnings given once. */
import type { Logger } from "../types";
import { shared } from "./shared";

/** The default logger and the warnings given, one for every copy of the package in the process. */
const state: { logger: Logger; warned: Set<string> } = /* @__PURE__ */ shared("logger", () => ({
  logger: console,
  warned: new Set<string>(),
}));

/** Where warnings go when a call gives no `logger` option (default `console`), as `@huggingface/inference`'s `setLogger`. */
export function setLogger(logger: Logger): void {
  state.logger = logger;
}

/** The logger set by {@link setLogger}. */
export function getLogger(): Logger {
  return state.logger;
}

/** Warns once per key for the life of the process (the set is bounded). */
export function warnOnce(logger: Logger, key: string, message: string): void {
  const { warned } = state;
  if (warned.has(key)) return;
  if (warned.size >= 1000) warned.clear();
  warned.add(key);
  logger.warn(message);
}
