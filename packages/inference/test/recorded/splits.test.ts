import { describe, expect, it } from "vitest";
import { entries, title } from "./catalog";
import type { Exchange } from "./fixtures";
import { expectedStream } from "./reference";
import { withServer } from "./server";
import { awkwardCuts, cut, MULTI_BYTE, prng, randomCuts, replayCut, sample, utf8, variants } from "./splits";

/**
 * Each recorded stream re-served with its bytes cut in many ways, and re-framed (CRLF, CR, BOM,
 * multi-byte text): the client yields the same chunks as from the bytes in one piece. The server
 * writes one piece per client read (paced), so every planned cut is a cut the client sees.
 */

const STREAMS: Exchange[] = [...entries("chat-stream"), ...entries("stream-error")];

/** One exchange per distinct body (the two tape files share many): cutting the same bytes twice proves nothing more. */
const DISTINCT: Array<{ ex: Exchange; sharedBy: number }> = [];
for (const ex of STREAMS) {
  const same = DISTINCT.find((d) => d.ex.body === ex.body);
  if (same) same.sharedBy++;
  else DISTINCT.push({ ex, sharedBy: 1 });
}

describe("recorded streams, cut and re-framed", () => {
  const cases = DISTINCT.map(
    ({ ex, sharedBy }) => [`${title(ex)}${sharedBy > 1 ? ` (the body of ${sharedBy} exchanges)` : ""}`, ex] as const,
  );
  it.each(cases)(
    "%s",
    async (_, ex) => {
      const recorded = expectedStream(ex.body);
      const random = prng(ex.id);
      const all = variants(ex.body);
      // One byte at a time, for the short bodies, in the one framing with the most to split.
      const byteByByte = all.filter((v) => v.name.endsWith("CRLF")).pop();
      await withServer(async (server) => {
        for (const variant of all) {
          const expected = variant.text.includes(MULTI_BYTE) ? expectedStream(variant.text) : recorded;
          if (variant.text.includes(MULTI_BYTE)) {
            // The inserted text is really there: the variant is not the recorded stream again.
            expect(expected.chunks).not.toStrictEqual(recorded.chunks);
            expect(expected.chunks).toHaveLength(recorded.chunks.length);
          }
          const bytes = utf8(variant.text);
          // A few hundred pieces per plan, whatever the length (the longest recorded stream is 104 KB).
          const maxPiece = Math.min(512, Math.max(8, Math.round(bytes.length / 150)));
          // Cuts inside the CRLF pairs and multi-byte characters (up to 300, evenly spread), and random ones.
          const awkward = awkwardCuts(bytes);
          const plans =
            awkward.length > 0
              ? [[...sample(awkward, 300), ...randomCuts(bytes.length, 4 * maxPiece, random)]]
              : [randomCuts(bytes.length, maxPiece, random)];
          if (bytes.length <= 1200 && variant === byteByByte)
            plans.push(Array.from({ length: bytes.length }, (_, i) => i));
          for (const cuts of plans) await replayCut(server, ex, cut(bytes, cuts), expected);
        }
      });
    },
    60_000,
  );
});
