import { VERSION } from "../version";

/**
 * State held once per page or process, whichever copy of the package asks for it: the bundlers' build loads the
 * client's tasks from a file of their own (`dist/tasks.js`) with its own copy of the code, which must see the same
 * memories, logger and call numbers as the root. Keyed by version: another version's state is never taken.
 */
export function shared<T>(name: string, make: () => T): T {
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  return (store[Symbol.for(`hfkit@${VERSION}:${name}`)] ??= make());
}
