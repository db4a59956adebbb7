import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** The recorded real exchanges, kept in the repository at `fixtures/recorded/` (their licences beside them). */
export const RECORDINGS_DIR = fileURLToPath(new URL("../../../../fixtures/recorded/", import.meta.url));

/**
 * `pnpm test:recorded` replays them. Should the folder be gone (a sparse or partial checkout), the run stops here,
 * once, saying where the recordings are expected, instead of failing in every file that reads them.
 */
export default function setup(): void {
  requireRecordings(RECORDINGS_DIR);
}

/** Throws, saying where they belong, unless the recordings are in `dir`. (Vitest calls `setup` with its context.) */
export function requireRecordings(dir: string): void {
  if (existsSync(dir)) return;
  throw new Error(
    `pnpm test:recorded needs the recorded exchanges in ${dir}: the folder fixtures/recorded/ of the repository. ` +
      "Restore it from Git (`git checkout -- fixtures/recorded`) and run it again.",
  );
}
