import { describe, expect, it } from "vitest";
import { entries, title } from "./catalog";
import type { Exchange } from "./fixtures";
import { expectedStream } from "./reference";
import { withServer } from "./server";
import { cut, replayCut, utf8 } from "./splits";

/**
 * The shortest recorded chat stream (as recorded) and TGI in-stream error (with CRLF line ends),
 * served in two pieces cut at every byte: each cut gives the same chunks and the same ending.
 */

/** The shortest recorded stream of a kind. */
function shortest(list: Exchange[]): Exchange {
  const sorted = [...list].sort((a, b) => a.body.length - b.body.length);
  if (!sorted[0]) throw new Error("no recorded stream of this kind");
  return sorted[0];
}

describe("every single cut of a short recorded stream", () => {
  const chat = shortest(entries("chat-stream"));
  const error = shortest(entries("stream-error"));
  const cases = [
    { name: `${title(chat)}, as recorded`, ex: chat, text: chat.body },
    { name: `${title(error)}, CRLF`, ex: error, text: error.body.replace(/\n/g, "\r\n") },
  ];

  it.each(cases.map((c) => [c.name, c] as const))(
    "%s",
    async (_, c) => {
      const expected = expectedStream(c.text);
      const bytes = utf8(c.text);
      expect(bytes.length).toBeLessThan(1200);
      await withServer(async (server) => {
        for (let at = 1; at < bytes.length; at++) await replayCut(server, c.ex, cut(bytes, [at]), expected);
        expect(server.requests).toHaveLength(bytes.length - 1);
      });
    },
    60_000,
  );
});
