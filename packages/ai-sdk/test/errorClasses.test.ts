/** Our AI SDK error classes are recognised by each major's own (and theirs by ours): the markers, not the class. */
import { describe, expect, it } from "vitest";
import * as ours from "../src/index";
import { MAJORS } from "./majors";

const made = {
  APICallError: new ours.APICallError({ message: "m", url: "https://x", requestBodyValues: {}, statusCode: 500 }),
  InvalidArgumentError: new ours.InvalidArgumentError({ argument: "size", message: "m" }),
  InvalidPromptError: new ours.InvalidPromptError({ prompt: [], message: "m" }),
  NoSuchModelError: new ours.NoSuchModelError({ modelId: "x", modelType: "imageModel" }),
  UnsupportedFunctionalityError: new ours.UnsupportedFunctionalityError({ functionality: "f" }),
};
const NAMES = Object.keys(made) as Array<keyof typeof made>;

describe.each(MAJORS.filter((major, i) => MAJORS.findIndex((m) => m.errors === major.errors) === i))(
  "$name's error classes",
  (major) => {
    it.each(NAMES)("%s: theirs recognises ours and no other kind; ours recognises theirs", (name) => {
      const theirs = major.errors[name];
      expect(theirs.isInstance(made[name])).toBe(true);
      expect(major.errors.AISDKError.isInstance(made[name])).toBe(true);
      for (const other of NAMES.filter((n) => n !== name))
        expect(major.errors[other].isInstance(made[name])).toBe(false);
      const their = new (theirs as unknown as new (o: object) => Error)({
        message: "m",
        url: "u",
        requestBodyValues: {},
        argument: "a",
        prompt: [],
        modelId: "x",
        modelType: "imageModel",
        functionality: "f",
      });
      expect(ours[name].isInstance(their)).toBe(true);
      expect(made[name].name).toBe(their.name);
    });
  },
);

it("our errors keep what the AI SDK reads: isRetryable false by default, the cause, the argument", () => {
  const cause = new Error("inner");
  const error = new ours.APICallError({ message: "m", url: "u", requestBodyValues: {}, statusCode: 503, cause });
  expect([error.isRetryable, error.cause, error.statusCode, error instanceof Error]).toEqual([false, cause, 503, true]);
  expect(made.InvalidArgumentError.argument).toBe("size");
  expect(ours.AISDKError.isInstance(new Error("plain"))).toBe(false);
});
