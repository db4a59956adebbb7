/**
 * The shape of the code on the path of one call: the call stack at the moment a call reaches `fetch`
 * names few of our files, each once (no trip back into a file already left) — for a streamed TGI chat
 * and for a provider task (fal-ai's queue: the Hub's mapping, the submission, its polls, the image).
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, expect, it } from "vitest";
import { InferenceClient } from "../src/index";
import { mappingMemory } from "../src/targets/providers/mapping";
import { QUESTION } from "./faults/support";

let hub: MockHub;
beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());

/** Our source files on `stack`, innermost first, consecutive frames of one file as one entry. */
function filesOn(stack: string): string[] {
  const files = stack
    .split("\n")
    .map((line) => /packages\/inference\/src\/([\w/]+\.ts)/.exec(line)?.[1])
    .filter((file): file is string => file !== undefined);
  return files.filter((file, i) => file !== files[i - 1]);
}

it.each([
  ["backend known", { backend: "tgi" as const }],
  ["backend detected", {}],
])(
  "a streamed TGI chat (%s) reaches fetch through at most seven of our files, each entered once",
  async (_name, options) => {
    const limit = Error.stackTraceLimit;
    Error.stackTraceLimit = 100;
    const stacks: string[] = [];
    try {
      const client = new InferenceClient("", {
        baseUrl: hub.url,
        ...options,
        fetch: (url, init) => {
          stacks.push(new Error("at fetch").stack ?? "");
          return fetch(url, init);
        },
      });
      let text = "";
      for await (const chunk of client.chatCompletionStream({ model: "hfkit/tgi-3.2", messages: QUESTION }))
        text += chunk.choices[0]?.delta?.content ?? "";
      expect(text).toBe("The capital of France is Paris.");
    } finally {
      Error.stackTraceLimit = limit;
    }
    expect(stacks).toHaveLength(1);
    const files = filesOn(stacks[0] ?? "");
    expect(files.length).toBeGreaterThan(2);
    expect(files.length).toBeLessThanOrEqual(7);
    expect(new Set(files).size).toBe(files.length);
    expect(files[0]).toBe("core/request.ts");
  },
);

it("a fal-ai textToImage reaches fetch through at most eight of our files, each entered once, at every request of the call", async () => {
  mappingMemory.clear();
  const limit = Error.stackTraceLimit;
  Error.stackTraceLimit = 100;
  const stacks: { url: string; files: string[] }[] = [];
  try {
    const client = new InferenceClient("hf_test", {
      hubUrl: hub.url,
      allowPrivateNetwork: true,
      fetch: (url, init) => {
        stacks.push({ url: String(url), files: filesOn(new Error("at fetch").stack ?? "") });
        return fetch(String(url).replace(/^https:\/\/router\.huggingface\.co/, hub.url), init);
      },
    });
    const image = await client.textToImage({ model: "hfkit/text-to-image-fal", provider: "fal-ai", inputs: "a cat" });
    expect(image).toBeInstanceOf(Blob);
  } finally {
    Error.stackTraceLimit = limit;
  }
  // The Hub's mapping, the submission to the queue, its status polled, its result, the image it names.
  expect(stacks.map((s) => new URL(s.url).pathname.replace(/\/requests\/[^/]+/, "/requests/ID"))).toEqual([
    "/api/models/hfkit/text-to-image-fal",
    "/fal-ai/hfkit-fal/flux",
    "/fal-ai/hfkit-fal/flux/requests/ID/status",
    "/fal-ai/hfkit-fal/flux/requests/ID",
    expect.stringMatching(/^\/files\//),
  ]);
  for (const { url, files } of stacks) {
    expect(files.length, url).toBeGreaterThan(1);
    expect(files.length, `${url}: ${files.join(" < ")}`).toBeLessThanOrEqual(8);
    expect(new Set(files).size, `${url}: ${files.join(" < ")}`).toBe(files.length);
  }
});
