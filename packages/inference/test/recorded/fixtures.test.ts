import { describe, expect, it } from "vitest";
import { CATALOG, entries, NOT_COVERED, title } from "./catalog";
import { ALL_EXCHANGES, CASSETTES, contentType, type Exchange, header, requireDir, TAPE_FILES } from "./fixtures";
import { expectedStream, sseEvents } from "./reference";
import { recordedReply, replayHeaders, withServer } from "./server";
import { parseYaml } from "./yaml";

/** The harness itself: the fixtures are read whole, sorted, and replayed byte for byte. */

describe("the recorded fixtures", { timeout: 20_000 }, () => {
  it("fail clearly when the folder is missing", () => {
    expect(() => requireDir("/nonexistent/fixtures/recorded/")).toThrow(/recorded fixtures are missing/);
  });

  it("are all read: both tape files and every cassette", () => {
    const from = (prefix: string) => ALL_EXCHANGES.filter((ex) => ex.id.startsWith(prefix)).length;
    expect(from(`${TAPE_FILES[0]}#`)).toBe(33);
    expect(from(`${TAPE_FILES[1]}#`)).toBe(100);
    expect(CASSETTES.length).toBeGreaterThanOrEqual(50);
    for (const name of CASSETTES) expect(from(`${name}#`), name).toBeGreaterThan(0);
  });

  it("sort every exchange into one group, and say why the uncovered ones are", () => {
    const kinds = [
      "chat-stream",
      "chat-answer",
      "chat-error",
      "stream-error",
      "route-error",
      "chat-fallback",
      "generate-answer",
      "generate-stream",
      "generate-error",
      "not-covered",
    ] as const;
    const counts = Object.fromEntries(kinds.map((k) => [k, entries(k).length]));
    expect(counts).toStrictEqual({
      "chat-stream": 50,
      "chat-answer": 55,
      "chat-error": 27,
      "stream-error": 6,
      "route-error": 3,
      "chat-fallback": 2,
      "generate-answer": 34,
      "generate-stream": 10,
      "generate-error": 5,
      "not-covered": 48,
    });
    expect(CATALOG).toHaveLength(ALL_EXCHANGES.length);
    expect(Object.values(counts).reduce((a, b) => a + b, 0)).toBe(ALL_EXCHANGES.length);
    // Not replayed: only for the reasons given in the catalogue (each checked in not-covered.test.ts).
    const reasons = new Map<string, number>();
    for (const e of CATALOG.filter((c) => c.kind === "not-covered"))
      reasons.set(e.reason ?? "", (reasons.get(e.reason ?? "") ?? 0) + 1);
    expect(Object.fromEntries(reasons)).toStrictEqual({
      [NOT_COVERED.hubApi]: 42,
      [NOT_COVERED.completions]: 3,
      [NOT_COVERED.imageToText]: 3,
    });
  });

  it("hold chat streams of every framing the SDK must read", () => {
    const streams = entries("chat-stream");
    const framing = (ex: Exchange) => ({
      noSpace: /^data:[^ ]/m.test(ex.body),
      done: sseEvents(ex.body).some((e) => e.data.trim() === "[DONE]"),
    });
    expect(streams.some((ex) => framing(ex).noSpace && !framing(ex).done)).toBe(true); // TGI <= 2.0
    expect(streams.some((ex) => !framing(ex).noSpace && !framing(ex).done)).toBe(true); // TGI 2.1, a router provider
    expect(streams.some((ex) => framing(ex).done)).toBe(true); // TGI >= 2.2, OpenAI-style providers
    // The recorded TGI finish reasons that the SDK must rename.
    const reasons = streams.flatMap((ex) =>
      sseEvents(ex.body).map((e) => /"finish_reason":\s*"(\w+)"/.exec(e.data)?.[1]),
    );
    expect(reasons).toContain("eos_token");
    for (const ex of streams) {
      const expected = expectedStream(ex.body);
      expect(expected.chunks.length, title(ex)).toBeGreaterThan(0);
      expect(
        expected.chunks.some((c) => JSON.stringify(c).includes("eos_token")),
        title(ex),
      ).toBe(false);
    }
  });
});

describe("the YAML reader", { timeout: 20_000 }, () => {
  it("reads VCR.py's shapes: nested maps, sequences at the key's indent, folded quoted scalars", () => {
    const text = [
      "interactions:",
      "- request:",
      "    body: '{\"a\": ''x''}",
      "      next'",
      "    headers:",
      "      Accept:",
      "      - '*/*'",
      "      user-agent:",
      "      - unknown/None; hf_hub/0.23.0;",
      "        fastcore/1.5.23",
      "  response:",
      "    body:",
      "      string: 'data: 1",
      "",
      "",
      "        data: 2",
      "",
      "",
      "        '",
      '      other: "{\\n  \\"id\\": 1,\\n',
      '        \\ \\"k\\": \\"v\\u00e9\\"}"',
      '      joined: "ab\\',
      '        cd"',
      "    status:",
      "      code: 422",
      "      message: Unprocessable Entity",
      "    empty: null",
      "version: 1",
    ].join("\n");
    expect(parseYaml(text)).toStrictEqual({
      interactions: [
        {
          request: {
            body: `{"a": 'x'} next`,
            headers: { Accept: ["*/*"], "user-agent": ["unknown/None; hf_hub/0.23.0; fastcore/1.5.23"] },
          },
          response: {
            body: { string: "data: 1\n\ndata: 2\n\n", other: '{\n  "id": 1,\n  "k": "vé"}', joined: "abcd" },
            status: { code: "422", message: "Unprocessable Entity" },
            empty: null,
          },
        },
      ],
      version: "1",
    });
  });

  it("refuses what it does not read", () => {
    expect(() => parseYaml("a: &anchor 1")).toThrow(/unsupported/);
    expect(() => parseYaml("a: 'never closed")).toThrow(/unterminated/);
  });

  it("gives every recorded JSON body of a cassette as valid JSON", () => {
    const cassetteJson = ALL_EXCHANGES.filter((ex) => ex.id.includes(".yaml#") && contentType(ex).includes("json"));
    expect(cassetteJson.length).toBeGreaterThan(40);
    for (const ex of cassetteJson) expect(() => JSON.parse(ex.body), ex.id).not.toThrow();
  });
});

describe("the replay server", { timeout: 20_000 }, () => {
  const REPLAYED = CATALOG.filter((e) => e.kind !== "not-covered").map((e) => e.ex);

  it("answers with the recorded status, headers and body bytes", async () => {
    await withServer(async (server) => {
      for (const ex of REPLAYED) {
        server.reply(recordedReply(ex));
        const res = await fetch(`${server.origin}/any`, { method: "POST", body: "{}" });
        expect(res.status, ex.id).toBe(ex.status);
        expect(res.statusText, ex.id).toBe(ex.statusText);
        for (const [name, values] of replayHeaders(ex)) {
          if (name.toLowerCase() === "set-cookie") expect(res.headers.getSetCookie(), ex.id).toStrictEqual(values);
          else expect(res.headers.get(name), `${ex.id} ${name}`).toBe(values.join(", "));
        }
        expect(res.headers.get("x-request-id"), ex.id).toBe(header(ex, "x-request-id") ?? null);
        expect(await res.text(), ex.id).toBe(ex.body);
      }
      // 421 Misdirected Request is sent again by Node's fetch itself, once.
      expect(server.requests.length).toBeGreaterThanOrEqual(REPLAYED.length);
    });
  });
});
