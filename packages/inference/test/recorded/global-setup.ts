import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/**
 * `pnpm test:recorded` replays real exchanges kept outside the repository, in `shared/fixtures/recorded/` beside the
 * checkout. Without that folder the run stops here, once, saying where the recordings are expected, instead of
 * failing in every file that reads them.
 */
export default function setup(): void {
  requireRecordings(fileURLToPath(new URL("../../../../../shared/fixtures/recorded/", import.meta.url)));
}

/** Throws, saying where they belong, unless the recordings are in `dir`. (Vitest calls `setup` with its own context.) */
export function requireRecordings(dir: string): void {
  if (existsSync(dir)) return;
  throw new Error(
    `pnpm test:recorded needs the recorded exchanges in ${dir}: the folder shared/fixtures/recorded beside this checkout ` +
      "(CI has it there). They are not in the repository; put them there (or a link to them) and run it again. " +
      "`pnpm test` runs without them.",
  );
}
