import type { Logger } from "./types";

const warned = new Set<string>();

/** Warns once per key for the life of the process (the set is bounded). */
export function warnOnce(logger: Logger, key: string, message: string): void {
  if (warned.has(key)) return;
  if (warned.size >= 1000) warned.clear();
  warned.add(key);
  logger.warn(message);
}
