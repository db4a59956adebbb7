/**
 * A task's input checks hold on every target: each invalid input of each task is an InputError, with nothing
 * sent (not even the Hub's mapping lookup), on hf-inference, on a dedicated endpoint, with `provider: "auto"`
 * and on every provider that serves the task.
 */
import { describe, expect, it } from "vitest";
import * as hf from "../src/index";
import { PROVIDER_TASKS } from "../src/targets/providers/table";

const blob = new Blob([new Uint8Array([1, 2, 3])], { type: "image/png" });
const audio = new Blob([new Uint8Array([1, 2, 3])], { type: "audio/wav" });

type Fn = (args: Record<string, unknown>, options?: Record<string, unknown>) => Promise<unknown>;
interface Case {
  readonly name: string;
  readonly args: Record<string, unknown>;
  readonly options?: Record<string, unknown>;
  /** The field the InputError names. */
  readonly field: string;
}

const textInvalid = (good: Record<string, unknown>): Case[] => [
  { name: "inputs missing", args: { ...good, inputs: undefined }, field: "inputs" },
  { name: "inputs a number", args: { ...good, inputs: 42 }, field: "inputs" },
  { name: "parameters a string", args: { ...good, parameters: "x" }, field: "parameters" },
  { name: "parameters.top_k 0", args: { ...good, parameters: { top_k: 0 } }, field: "parameters.top_k" },
];
const binaryInvalid = (good: Record<string, unknown>): Case[] => [
  { name: "inputs missing", args: { ...good, inputs: undefined }, field: "inputs" },
  { name: "inputs a string", args: { ...good, inputs: "not a file" }, field: "inputs" },
  { name: "inputs empty", args: { ...good, inputs: new Blob([]) }, field: "inputs" },
  { name: "parameters a string", args: { ...good, parameters: "x" }, field: "parameters" },
];
/** A prompt and an optional image: absent is fine, given it must be a file. */
const optionalImageInvalid = (good: Record<string, unknown>): Case[] =>
  binaryInvalid(good).filter((c) => c.name !== "inputs missing");
const imageOut = (good: Record<string, unknown>): Case[] => [
  { name: "outputType bogus", args: good, options: { outputType: "bogus" }, field: "outputType" },
];

/** Each task served by a provider: its function and its invalid inputs. */
const TASKS: Record<string, { fn: keyof typeof hf; cases: Case[] }> = {
  // A provider that fetches audio takes its URL (and refuses any other string in its own words): not a string, then.
  "automatic-speech-recognition": {
    fn: "automaticSpeechRecognition",
    cases: [
      ...binaryInvalid({ inputs: audio }).filter((c) => c.name !== "inputs a string"),
      { name: "inputs a number", args: { inputs: 42 }, field: "inputs" },
      { name: "inputs an empty string", args: { inputs: "" }, field: "inputs" },
    ],
  },
  "audio-to-audio": { fn: "audioToAudio", cases: binaryInvalid({ inputs: audio }) },
  "feature-extraction": {
    fn: "featureExtraction",
    cases: [
      { name: "inputs empty", args: { inputs: "" }, field: "inputs" },
      { name: "inputs [1]", args: { inputs: [1] }, field: "inputs" },
      { name: "parameters a string", args: { inputs: "a", parameters: "x" }, field: "parameters" },
    ],
  },
  "image-segmentation": { fn: "imageSegmentation", cases: binaryInvalid({ inputs: blob }) },
  "image-text-to-image": {
    fn: "imageTextToImage",
    cases: optionalImageInvalid({ inputs: blob, parameters: { prompt: "a dog" } }),
  },
  "image-text-to-video": {
    fn: "imageTextToVideo",
    cases: optionalImageInvalid({ inputs: blob, parameters: { prompt: "a dog" } }),
  },
  "image-to-image": { fn: "imageToImage", cases: binaryInvalid({ inputs: blob }) },
  "image-to-text": { fn: "imageToText", cases: binaryInvalid({ inputs: blob }) },
  "image-to-video": { fn: "imageToVideo", cases: binaryInvalid({ inputs: blob }) },
  "text-generation": {
    fn: "textGeneration",
    cases: [
      { name: "inputs a number", args: { inputs: 42 }, field: "inputs" },
      {
        name: "temperature -1",
        args: { inputs: "a", parameters: { temperature: -1 } },
        field: "parameters.temperature",
      },
      {
        name: "max_new_tokens 1.5",
        args: { inputs: "a", parameters: { max_new_tokens: 1.5 } },
        field: "parameters.max_new_tokens",
      },
    ],
  },
  "text-to-audio": { fn: "textToAudio", cases: textInvalid({ inputs: "a song" }) },
  "text-to-image": {
    fn: "textToImage",
    cases: [...textInvalid({ inputs: "a cat" }), ...imageOut({ inputs: "a cat" })],
  },
  "text-to-speech": { fn: "textToSpeech", cases: textInvalid({ inputs: "hello" }) },
  "text-to-video": { fn: "textToVideo", cases: textInvalid({ inputs: "a cat" }) },
};

/** Where a task can go: hf-inference and an endpoint (for the tasks hf-inference serves), "auto", and each provider serving it. */
function targetsOf(task: string): [string, Record<string, unknown>][] {
  const providerOnly = ["image-text-to-image", "image-text-to-video", "image-to-video", "text-to-video"].includes(task);
  const own: [string, Record<string, unknown>][] = providerOnly
    ? []
    : [
        ["hf-inference", { provider: "hf-inference" }],
        ["an endpoint", { endpointUrl: "https://example.endpoints.huggingface.cloud" }],
      ];
  const providers = Object.entries(PROVIDER_TASKS)
    .filter(([, tasks]) => task in tasks)
    .map(([p]): [string, Record<string, unknown>] => [p, { provider: p }]);
  return [...own, ["auto", { provider: "auto" }], ...providers];
}

describe.each(Object.entries(TASKS))("%s", (task, { fn, cases }) => {
  const targets = targetsOf(task);
  it("is served by at least one provider here (the table and this test agree)", () => {
    expect(targets.length).toBeGreaterThan(1);
  });
  describe.each(targets)("on %s", (_where, target) => {
    it.each(cases)("$name: an InputError naming the field, nothing sent", async ({ args, options, field }) => {
      const sent: string[] = [];
      const fetch = async (url: string | URL | Request) => {
        sent.push(String(url));
        return new Response("{}", { status: 500 });
      };
      const call = hf[fn] as unknown as Fn;
      const error = await call(
        { model: "org/model", accessToken: "hf_test", ...args, ...target },
        { fetch, ...options },
      ).catch((e: unknown) => e);
      expect(error).toBeInstanceOf(hf.InputError);
      expect((error as hf.InputError).field).toBe(field);
      expect(sent).toEqual([]);
    });
  });
});

it("every provider × task pair of the table is tried above (a new pair cannot miss its checks)", () => {
  const pairs = Object.entries(PROVIDER_TASKS).flatMap(([p, tasks]) => Object.keys(tasks).map((t) => `${p} × ${t}`));
  const covered = Object.keys(TASKS).flatMap((t) => targetsOf(t).map(([p]) => `${p} × ${t}`));
  expect(pairs.filter((pair) => !covered.includes(pair))).toEqual([]);
});
