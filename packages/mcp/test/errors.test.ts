import { readFileSync } from "node:fs";
import { InferenceError, TimeoutError } from "@hfkit/inference";
import { describe, expect, it } from "vitest";
import { DuplicateToolNameError, McpServerError, McpTimeoutError, McpToolError, VERSION } from "../src";

describe("errors", () => {
  const errors = [
    new McpServerError("gone", { server: "node" }),
    new McpToolError("search", "no results"),
    new McpTimeoutError("call", 10, "search"),
    new DuplicateToolNameError("a_b", "a.b", "a_b"),
  ];

  it("are InferenceErrors named after their class (its kind), which survives minification", () => {
    for (const error of errors) {
      expect(error).toBeInstanceOf(InferenceError);
      expect(error.name).toBe(error.constructor.name);
      expect((error.constructor as typeof InferenceError).kind).toBe(error.name);
    }
    expect(new McpTimeoutError("connect", 10, "node")).toBeInstanceOf(TimeoutError);
  });

  it("are recognised by instanceof across copies of the package, by their kind", () => {
    const fromAnotherCopy = new McpToolError("search", "no results");
    Object.setPrototypeOf(fromAnotherCopy, Error.prototype);
    expect(fromAnotherCopy).toBeInstanceOf(McpToolError);
    expect(fromAnotherCopy).not.toBeInstanceOf(McpServerError);
  });

  it("keep a server's stderr in the message only when there is some", () => {
    expect(new McpServerError("gone", { server: "node", stderr: "" }).message).toBe("gone");
    expect(new McpServerError("gone", { server: "node", stderr: "oops" }).message).toBe(
      "gone. Its stderr ends with:\noops",
    );
  });
});

it("VERSION is the package's version", () => {
  const { version } = JSON.parse(readFileSync(new URL("../package.json", import.meta.url), "utf8")) as {
    version: string;
  };
  expect(VERSION).toBe(version);
});
