/** Where the client's warnings go by default (`setLogger`, as in `@huggingface/inference`), and warnings given once. */
import type { Logger } from "../types";

let defaultLogger: Logger = console;

/** Where warnings go when a call gives no `logger` option (default `console`), as `@huggingface/inference`'s `setLogger`. */
export function setLogger(logger: Logger): void {
  defaultLogger = logger;
}

/** The logger set by {@link setLogger}. */
export function getLogger(): Logger {
  return defaultLogger;
}

const warned = new Set<string>();

/** Warns once per key for the life of the process (the set is bounded). */
export function warnOnce(logger: Logger, key: string, message: string): void {
  if (warned.has(key)) return;
  if (warned.size >= 1000) warned.clear();
  warned.add(key);
  logger.warn(message);
}
