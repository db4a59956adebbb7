/** The rule that makes a server's words safe to show: no credential, nor a piece of one left at a cut. */
import { describe, expect, it } from "vitest";
import { redactText, secretsOf, serverTail, serverText } from "../src/redact";

const APP_KEY = "pass word:with;punct-0123"; // characters a token is not made of: only its own start tells it
const HF_TOKEN = `hf_${"Q".repeat(34)}`;
const BEARER_VALUE = "abc.DEF-ghi_jkl~123+/=";

/** Fails when `text` shows any 6 characters in a row of `secret`. */
function expectNoPiece(text: string, secret: string): void {
  for (let at = 0; at + 6 <= secret.length; at++) expect(text).not.toContain(secret.slice(at, at + 6));
}

describe("redactText", () => {
  it("replaces the connection's secrets, any HF token and any Bearer value", () => {
    const text = `key ${APP_KEY}, token ${HF_TOKEN}, header "Bearer ${BEARER_VALUE}"`;
    expect(redactText(text, [APP_KEY])).toBe('key [redacted], token [redacted], header "Bearer [redacted]"');
  });
});

/** Text that redaction shrinks to a sixth: what a server can put before a cut to bring what is past it into view. */
const SHRINKING = `hf_${"F".repeat(60)} `.repeat(8);

describe.each([
  ["a secret of the app", APP_KEY, [APP_KEY]],
  ["an HF token", HF_TOKEN, []],
  ["a Bearer value", `Bearer ${BEARER_VALUE}`, []],
] as const)("a cut through %s", (_what, credential, secrets) => {
  const piece = credential.replace(/^Bearer /, "");
  const max = 400;
  // The credential at every place from well inside `max` to past the room read beyond it (256 + the longest secret).
  const places = Array.from({ length: 500 }, (_, i) => ".".repeat(i));

  it("at the end of serverText leaves no piece of it, the text before the cut shrinking as it is redacted", () => {
    for (const dots of places) {
      const shown = serverText(`${SHRINKING}${dots}${credential} ${"-".repeat(2_000)}`, secrets, max);
      expect(shown.length).toBeLessThanOrEqual(max);
      expectNoPiece(shown, piece);
    }
  });

  it("at the start of serverTail leaves no piece of it, the text after the cut shrinking as it is redacted", () => {
    for (const dots of places) {
      const shown = serverTail(`${"-".repeat(2_000)} ${credential}${dots}${SHRINKING}`, secrets, max);
      expect(shown.length).toBeLessThanOrEqual(max);
      expectNoPiece(shown, piece);
    }
  });
});

describe("secretsOf", () => {
  it("takes credential headers after their scheme, and env and query values whose names say keys; longest first", () => {
    const headers = { Authorization: "Bearer tok-123456", "X-Api-Key": "k-abcdefghij", Accept: "application/json" };
    const env = { API_KEY: "env-key-1", PATH: "/usr/bin", DB_PASSWORD: "pw-9876", SHORT_TOKEN: "abc" };
    const url = new URL("https://mcp.example.com/mcp?access_token=query-tok-1&page=2");
    expect(secretsOf(headers, env, url)).toEqual(["k-abcdefghij", "query-tok-1", "tok-123456", "env-key-1", "pw-9876"]);
  });
});
