/** `pnpm test:recorded` without the recordings stops once, naming the folder it expected and where it belongs. */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { expect, it } from "vitest";
import setup, { requireRecordings } from "./recorded/global-setup";

it("a missing recordings folder is one error naming it; a present one passes", () => {
  const missing = join(tmpdir(), "no-such-recordings", "shared", "fixtures", "recorded");
  expect(() => requireRecordings(missing)).toThrow(`pnpm test:recorded needs the recorded exchanges in ${missing}`);
  expect(() => requireRecordings(missing)).toThrow("shared/fixtures/recorded beside this checkout");
  expect(() => requireRecordings(mkdtempSync(join(tmpdir(), "recordings-")))).not.toThrow();
  // Here (and in CI) the recordings are beside the checkout: the setup vitest runs passes.
  expect(() => setup()).not.toThrow();
});
