/**
 * The event-stream format as the SDK reads it (core/sse.ts's own line reader), checked against
 * eventsource-parser as an oracle: any stream of `data`, `event`, `id`, `retry`, comment and unknown
 * lines, ended by LF, CRLF or CR, cut anywhere, gives the events the oracle gives. And what a reader
 * that waits for the next byte gets wrong: a CR that ends one read ends its line there.
 */
import fc from "fast-check";
import { createParser } from "eventsource-parser";
import { describe, expect, it } from "vitest";
import { chatCompletionStream, MalformedEventError } from "../../src/index";
import { chunk, cut, messages, recordingFetch, sse, within } from "../helpers";

const encoder = new TextEncoder();

/** A body that hands out `pieces` one read each; `hold` keeps it open after them until `release()`. */
function piecesBody(pieces: Uint8Array[], hold = false) {
  let release = (): void => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  let i = 0;
  const body = new ReadableStream<Uint8Array>({
    async pull(controller) {
      if (i < pieces.length) return controller.enqueue(pieces[i++] as Uint8Array);
      if (hold) await released;
      controller.close();
    },
  });
  return { body, release };
}

function streamOf(body: ReadableStream<Uint8Array>) {
  const { fetch } = recordingFetch(() => sse(body));
  return chatCompletionStream(
    { messages },
    { endpointUrl: "http://tgi.test", backend: "openai", fetch, maxRetries: 0 },
  );
}

async function tokensOf(body: ReadableStream<Uint8Array>): Promise<{ tokens: string[]; error?: unknown }> {
  const tokens: string[] = [];
  try {
    for await (const c of streamOf(body)) tokens.push(c.choices[0]?.delta?.content ?? "");
  } catch (error) {
    return { tokens, error };
  }
  return { tokens };
}

const ending = fc.constantFrom("\n", "\r\n", "\r");
/** Lines that are not data and must change nothing (or, for `event`, only the event's name). */
const noise = fc.constantFrom(
  ": keep-alive",
  ":",
  "id: 7",
  "id",
  "retry: 100",
  "retry: soon",
  "datum: {",
  "events: x",
  "dat",
  "event: ping",
  "event:",
  "event",
  "foo: bar",
  "data",
  // One letter off `data` or `event`, each place: another field, never a data line or a name.
  "xata: {",
  "dxta: {",
  "daxa: {",
  "datx: {",
  "idea: {",
  "xvent: error",
  "exent: error",
  "evxnt: error",
  "evext: error",
  "evenx: error",
  "ebent:error",
);

/** One event: its chunk as pretty JSON, one `data` line per JSON line ("data:" or "data: "), noise between. */
const anEvent = fc.record({
  token: fc.constantFrom("Le", " café", " 東京", " 🚀", "  two spaces", ""),
  space: fc.boolean(),
  noise: fc.array(fc.tuple(fc.nat(), noise), { maxLength: 3 }),
  blanksBefore: fc.nat({ max: 2 }),
});

type Line = string;
function render(events: Array<typeof anEvent extends fc.Arbitrary<infer T> ? T : never>, endings: string[]): string {
  const lines: Line[] = [];
  events.forEach((e, i) => {
    for (let b = 0; b < e.blanksBefore; b++) lines.push("");
    const json = JSON.stringify(chunk(e.token, i === events.length - 1 ? "stop" : null), null, 1).split("\n");
    const body = json.map((l) => (e.space ? `data: ${l}` : `data:${l}`));
    for (const [at, line] of e.noise) body.splice(at % (body.length + 1), 0, line);
    lines.push(...body, "");
  });
  let previous = "";
  return lines
    .map((l, i) => {
      let end = endings[i % endings.length] ?? "\n";
      // A CR then an empty line ended by LF would be one CRLF: the blank line would vanish (and two events merge).
      if (previous === "\r" && l === "" && end.startsWith("\n")) end = "\r\n";
      previous = end;
      return l + end;
    })
    .join("");
}

/** What the oracle dispatches: each event's token, unless it is not a chat chunk. */
function oracle(text: string): string[] {
  const tokens: string[] = [];
  const parser = createParser({
    onEvent: (e) => {
      if (e.event === "error") throw new Error("no error events are generated");
      tokens.push((JSON.parse(e.data) as ReturnType<typeof chunk>).choices[0]?.delta.content ?? "");
    },
  });
  parser.feed(text);
  parser.feed("\n"); // it holds a CR that ends its input until the next byte says whether an LF follows
  return tokens;
}

describe("the event-stream format, against eventsource-parser", () => {
  it("any stream of data, event, id, retry, comment and unknown lines, any line endings, cut anywhere (property)", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(anEvent, { minLength: 1, maxLength: 5 }),
        fc.array(ending, { minLength: 1, maxLength: 4 }),
        fc.array(fc.nat(), { maxLength: 30 }),
        async (events, endings, cuts) => {
          const text = render(events, endings);
          const expected = oracle(text);
          expect(expected).toHaveLength(events.length); // the generator's events are all dispatched
          const got = await tokensOf(piecesBody(cut(encoder.encode(text), cuts)).body);
          expect(got.error).toBeUndefined();
          expect(got.tokens).toEqual(expected);
        },
      ),
      { numRuns: 400 },
    );
  });
});

describe("line ends across reads", () => {
  const a = `data: ${JSON.stringify(chunk("A"))}`;
  const b = `data: ${JSON.stringify(chunk("B", "stop"))}`;

  it("a CR that ends one read and an LF that starts the next are one line end, not a blank line", async () => {
    // Split inside a JSON value: were the LF read as a blank line, the first half would be dispatched alone (malformed).
    const json = JSON.stringify(chunk("A"), null, 1).split("\n");
    const half = json.length >> 1;
    const first = json
      .slice(0, half)
      .map((l) => `data:${l}`)
      .join("\r\n");
    const second = json
      .slice(half)
      .map((l) => `data:${l}`)
      .join("\r\n");
    const got = await tokensOf(
      piecesBody([encoder.encode(`${first}\r`), encoder.encode(`\n${second}\r\n\r\n${b}\r\n\r\n`)]).body,
    );
    expect(got).toEqual({ tokens: ["A", "B"] });
  });

  it("two CRs end an event at once: the chunk is yielded before any further byte arrives", async () => {
    const { body, release } = piecesBody([encoder.encode(`${a}\r\r`)], true);
    const it = streamOf(body)[Symbol.asyncIterator]();
    const first = await within(it.next(), 2000);
    expect(first.value?.choices[0]?.delta?.content).toBe("A");
    release();
    await expect(it.next()).rejects.toThrow("The stream ended before the answer was complete");
  });

  it("an LF after a CR that ended the last read is skipped once, and only once", async () => {
    // "\r" | "\n\n": the first LF completes the CRLF, the second is the blank line that dispatches.
    const got = await tokensOf(piecesBody([encoder.encode(`${a}\r`), encoder.encode(`\n\n${b}\n\n`)]).body);
    expect(got).toEqual({ tokens: ["A", "B"] });
  });

  it("a CR inside one read followed by an LF is one line end (CRLF), and a lone CR is one too", async () => {
    const got = await tokensOf(piecesBody([encoder.encode(`${a}\r\n\r${b}\r\r`)]).body);
    expect(got).toEqual({ tokens: ["A", "B"] });
  });

  it("a line cut over many reads is joined once, whole", async () => {
    const text = `${a}\n\n${b}\n\n`;
    const got = await tokensOf(piecesBody([...encoder.encode(text)].map((byte) => Uint8Array.of(byte))).body);
    expect(got).toEqual({ tokens: ["A", "B"] });
  });
});

describe("fields", () => {
  const json = JSON.stringify(chunk("A", "stop"));

  it("`data:` keeps a value's spaces after the one it drops", async () => {
    // "data:  x": one space dropped, one kept; the JSON's leading space is harmless, a lost character would not be.
    const got = await tokensOf(piecesBody([encoder.encode(`data:  ${json}\n\n`)]).body);
    expect(got).toEqual({ tokens: ["A"] });
  });

  it("a `data` line without a colon is an empty data line (joined by a newline)", async () => {
    const got = await tokensOf(piecesBody([encoder.encode(`data\ndata:${json}\ndata\n\n`)]).body);
    expect(got).toEqual({ tokens: ["A"] });
  });

  it("a field that only starts like data is another field: read past", async () => {
    const got = await tokensOf(piecesBody([encoder.encode(`datum: {\ndata_: }\ndata:${json}\n\n`)]).body);
    expect(got).toEqual({ tokens: ["A"] });
  });

  it("`event: error` names the event, also with no space and CR line ends", async () => {
    const got = await tokensOf(piecesBody([encoder.encode(`event:error\rdata: {"message":"boom"}\r\r`)]).body);
    expect(got.tokens).toEqual([]);
    expect(String(got.error)).toContain("boom");
  });

  it("a blank line ends the event's name with it: the next event is not an error", async () => {
    const got = await tokensOf(piecesBody([encoder.encode(`event: error\n\ndata:${json}\n\n`)]).body);
    expect(got).toEqual({ tokens: ["A"] });
  });

  it("`event` without a colon clears the name given before it", async () => {
    const got = await tokensOf(piecesBody([encoder.encode(`event: error\nevent\ndata:${json}\n\n`)]).body);
    expect(got).toEqual({ tokens: ["A"] });
  });

  it("an event's data lines are joined by newlines: a value cut over two lines is one value", async () => {
    const mid = json.indexOf(",");
    const got = await tokensOf(
      piecesBody([encoder.encode(`data: ${json.slice(0, mid)}\ndata: ${json.slice(mid)}\n\n`)]).body,
    );
    expect(got).toEqual({ tokens: ["A"] });
  });

  it("data lines are not carried over a blank line: each event starts empty", async () => {
    const got = await tokensOf(
      piecesBody([encoder.encode(`data: ${JSON.stringify(chunk("A"))}\n\ndata: {"choices": [\n\n`)]).body,
    );
    expect(got.tokens).toEqual(["A"]);
    expect(got.error).toBeInstanceOf(MalformedEventError);
    expect((got.error as MalformedEventError).data).toBe('{"choices": [');
  });
});
