import { describe, expect, it } from "vitest";
import { toolName } from "../src";
import { cutText, resultText } from "../src/result";

describe("cutText", () => {
  const note = (left: number, total: number, max: number) =>
    `\n[… cut: ${left} of ${total} bytes left out (maxResultBytes: ${max})]`;

  it("keeps a text that fits, to the byte", () => {
    expect(cutText("abc", 3)).toBe("abc");
    expect(cutText("é".repeat(5), 10)).toBe("é".repeat(5));
  });

  it("cuts between characters, never inside one, and says how much was left out", () => {
    expect(cutText("abcd", 3)).toBe(`abc${note(1, 4, 3)}`);
    expect(cutText("éé", 3)).toBe(`é${note(2, 4, 3)}`); // the second é would need bytes 3 and 4
    expect(cutText("a😀b", 4)).toBe(`a${note(5, 6, 4)}`); // 😀 is 4 bytes (2 UTF-16 units): not split
    expect(cutText("😀", 1)).toBe(note(4, 4, 1));
  });
});

describe("resultText", () => {
  it("joins the text parts, one per line; nothing for no content", () => {
    expect(
      resultText({
        content: [
          { type: "text", text: "a" },
          { type: "text", text: "b\nc" },
        ],
      }),
    ).toBe("a\nb\nc");
    expect(resultText({ content: [] })).toBe("");
  });

  it("gives structuredContent (or an old server's toolResult) as JSON only when no part is text", () => {
    expect(resultText({ content: [{ type: "text", text: "sum: 5" }], structuredContent: { sum: 5 } })).toBe("sum: 5");
    expect(resultText({ content: [], structuredContent: { sum: 5 } })).toBe('{"sum":5}');
    expect(resultText({ toolResult: [1, 2] })).toBe("[1,2]");
    const image = { type: "image" as const, data: "AAAA AAAA", mimeType: "image/gif" };
    expect(resultText({ content: [image], structuredContent: { n: 1 } })).toBe('{"n":1}\n[image: image/gif, 6 bytes]');
  });

  it("names a blob resource's size and a link's size when it is given", () => {
    const blob = { type: "resource" as const, resource: { uri: "mem://a", blob: "AAA=" } };
    const link = { type: "resource_link" as const, uri: "file:///x", name: "x", mimeType: "text/csv", size: 10 };
    expect(resultText({ content: [blob, link] })).toBe(
      "[resource: mem://a, 2 bytes]\n[resource link: file:///x, x, text/csv, 10 bytes]",
    );
  });
});

describe("toolName", () => {
  it("puts the prefix first, replaces each other character by _, cuts at 64", () => {
    expect(toolName("", "get-weather_2")).toBe("get-weather_2");
    expect(toolName("gh_", "repos.list")).toBe("gh_repos_list");
    expect(toolName("", "café 😀")).toBe("caf___"); // one _ per character, the emoji's two UTF-16 units included
    expect(toolName("p_", "n".repeat(80))).toBe(`p_${"n".repeat(62)}`);
    expect(toolName("", "")).toBe("_");
  });
});
