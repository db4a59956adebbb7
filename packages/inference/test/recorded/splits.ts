import { expect } from "vitest";
import { chatCompletionStream } from "../../dist/index.js";
import { title } from "./catalog";
import type { Exchange } from "./fixtures";
import { expectRequest, planCall, quietLogger, TOKEN } from "./plan";
import type { ExpectedStream } from "./reference";
import { drain, expectOutcome, recordedRequestId, within } from "./run";
import { Pacer, pacedFetch, recordedReply, type ReplayServer } from "./server";

/** Re-framings and re-cuttings of recorded event-stream bytes, all of which must parse the same. */

const encoder = new TextEncoder();

export interface Variant {
  name: string;
  text: string;
}

/** Text inserted at the start of every `content` string: 2-, 3- and 4-byte UTF-8 sequences. */
export const MULTI_BYTE = "é東🚀";

/**
 * The recorded text with other framings: CRLF or CR line ends, a BOM; and with multi-byte text put
 * into each `content` string (no recorded chat stream has any), so that cuts can fall inside a
 * character. The recorded bodies hold no CR of their own, so every LF is a line end.
 */
export function variants(recorded: string): Variant[] {
  if (recorded.includes("\r")) throw new Error("a recorded body with CR: the variants assume LF line ends");
  const crlf = (t: string): string => t.replace(/\n/g, "\r\n");
  const multiByte = recorded.replace(/("content":\s*")/g, `$1${MULTI_BYTE}`);
  const out: Variant[] = [
    { name: "as recorded (LF)", text: recorded },
    { name: "CRLF", text: crlf(recorded) },
    { name: "CR", text: recorded.replace(/\n/g, "\r") },
    { name: "BOM, CRLF", text: `\uFEFF${crlf(recorded)}` },
  ];
  if (multiByte !== recorded) {
    out.push(
      { name: "multi-byte content", text: multiByte },
      { name: "multi-byte content, CRLF", text: crlf(multiByte) },
    );
  }
  return out;
}

/** A small deterministic PRNG (mulberry32), seeded from a string. */
export function prng(seedText: string): () => number {
  let seed = 2166136261;
  for (let i = 0; i < seedText.length; i++) seed = Math.imul(seed ^ seedText.charCodeAt(i), 16777619);
  return () => {
    seed = (seed + 0x6d2b79f5) | 0;
    let t = Math.imul(seed ^ (seed >>> 15), 1 | seed);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** Positions that split something in two: inside a CRLF pair, inside a UTF-8 sequence. */
export function awkwardCuts(bytes: Uint8Array): number[] {
  const cuts: number[] = [];
  for (let i = 1; i < bytes.length; i++) {
    const insideCrlf = bytes[i - 1] === 13 && bytes[i] === 10;
    const insideChar = ((bytes[i] as number) & 0xc0) === 0x80;
    if (insideCrlf || insideChar) cuts.push(i);
  }
  return cuts;
}

/** Random cuts: pieces of 1..maxPiece bytes. */
export function randomCuts(length: number, maxPiece: number, random: () => number): number[] {
  const cuts: number[] = [];
  for (let at = 1 + Math.floor(random() * maxPiece); at < length; at += 1 + Math.floor(random() * maxPiece))
    cuts.push(at);
  return cuts;
}

/** At most `max` of `cuts`, evenly spread. */
export function sample(cuts: number[], max: number): number[] {
  if (cuts.length <= max) return cuts;
  return Array.from({ length: max }, (_, i) => cuts[Math.floor((i * cuts.length) / max)] as number);
}

/** The bytes cut at `cuts` (any order, duplicates and out-of-range positions ignored). */
export function cut(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts)].filter((c) => c > 0 && c < bytes.length).sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let last = 0;
  for (const p of [...points, bytes.length]) {
    pieces.push(bytes.slice(last, p));
    last = p;
  }
  return pieces;
}

export const utf8 = (text: string): Uint8Array => encoder.encode(text);

/** The byte offsets at which the client's reads ended. */
export function readEnds(reads: number[]): Set<number> {
  const ends = new Set<number>();
  let at = 0;
  for (const n of reads) ends.add((at += n));
  return ends;
}

/** Every planned cut reached the client as a cut (the network may only add more). */
export function expectCutsSeen(pacer: Pacer, pieces: Uint8Array[]): void {
  const ends = readEnds(pacer.reads);
  let at = 0;
  for (const piece of pieces.slice(0, -1)) {
    at += piece.length;
    expect(ends.has(at), `cut at byte ${at} not seen by the client`).toBe(true);
  }
}

/** Serves `pieces` for `ex`, runs the SDK over them, and checks chunks, ending, cuts and request. */
export async function replayCut(
  server: ReplayServer,
  ex: Exchange,
  pieces: Uint8Array[],
  expected: ExpectedStream,
): Promise<void> {
  const pacer = new Pacer();
  server.reply({ ...recordedReply(ex), pieces, pacer });
  const plan = planCall(ex, server, true);
  const before = server.requests.length;
  const stream = chatCompletionStream(
    { ...plan.args, accessToken: TOKEN },
    { ...plan.route.options, fetch: pacedFetch(pacer), logger: quietLogger() },
  );
  const got = await within(drain(stream), 10_000, `${title(ex)} in ${pieces.length} pieces`);
  expect(got.chunks).toStrictEqual(expected.chunks);
  expectOutcome(got, expected.outcome, recordedRequestId(ex));
  expectCutsSeen(pacer, pieces);
  expect(server.requests.length).toBe(before + 1);
  expectRequest(server.requests[before], plan.route.path, plan.body);
}
