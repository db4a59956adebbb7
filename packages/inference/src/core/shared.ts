import { VERSION } from "../version";

/**
 * State held once per page or process, whichever copy of the package asks for it. The ES modules hold one copy of
 * the code in any app; this is for the dual-package hazard: a process that imports the package (the ES modules) and
 * also requires it (the CommonJS file, through a dependency) holds two copies, which must see the same memories,
 * logger and call numbers. Keyed by version: another version's state is never taken.
 */
export function shared<T>(name: string, make: () => T): T {
  const store = globalThis as unknown as Record<symbol, T | undefined>;
  return (store[Symbol.for(`hfkit@${VERSION}:${name}`)] ??= make());
}
