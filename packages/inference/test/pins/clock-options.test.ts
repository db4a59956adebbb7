/**
 * The time and retry options are checked before anything is sent: each duration a number of ms > 0 or
 * Infinity, `maxRetries` an integer from 0 to 100. A refusal is an InputError naming the option with its exact
 * message, and the server sees nothing; what is accepted reaches the server.
 */
import { describe, expect, it, vi } from "vitest";
import { InputError, type Options } from "../../src/index";
import { whole } from "../faults/raw-server";
import { answerJson, clientOn, QUESTION, useRawServer } from "./stream-support";

const raw = useRawServer();
const DURATIONS = ["timeout", "firstChunkTimeout", "idleTimeout", "stallTimeout"] as const;

/** A chat call's answer, or its error, with the server answering at once. */
function chat(options: Options): Promise<unknown> {
  raw().handle((_req, reply) => whole(reply, 200, "application/json", answerJson("Paris")));
  return clientOn(raw(), options)
    .chatCompletion({ messages: QUESTION })
    .then(
      (out) => out.choices[0]?.message.content,
      (e: unknown) => e,
    );
}

describe("durations", () => {
  const refused: Array<[unknown, string]> = [
    [0, "0"],
    [-1, "-1"],
    [-Infinity, "-Infinity"],
    [Number.NaN, "NaN"],
    ["5", "5"],
    [null, "null"],
    [true, "true"],
  ];

  for (const field of DURATIONS) {
    it.each(refused)(`${field} = %o → InputError naming it, nothing sent`, async (value, shown) => {
      const error = await chat({ [field]: value } as Options);
      expect(error).toBeInstanceOf(InputError);
      expect((error as InputError).field).toBe(field);
      expect((error as Error).message).toBe(
        `\`${field}\` must be a number of milliseconds > 0, or Infinity for none (got ${shown})`,
      );
      expect(raw().requests).toHaveLength(0);
    });

    it.each([1, 0.5, 1e-9, 60_000, 3e9, Infinity])(`${field} = %d is accepted`, async (value) => {
      // On a fake clock that never moves, so that even 1e-9 ms cannot fire before the answer.
      vi.useFakeTimers({ toFake: ["setTimeout", "clearTimeout", "Date"] });
      try {
        expect(await chat({ [field]: value })).toBe("Paris");
      } finally {
        vi.useRealTimers();
      }
      expect(raw().requests).toHaveLength(1);
    });
  }

  it("undefined is the default, not an error", async () => {
    expect(
      await chat({ timeout: undefined, firstChunkTimeout: undefined, idleTimeout: undefined, stallTimeout: undefined }),
    ).toBe("Paris");
  });
});

describe("maxRetries", () => {
  it.each<[unknown, string]>([
    [-1, "-1"],
    [101, "101"],
    [1.5, "1.5"],
    [Number.NaN, "NaN"],
    [Infinity, "Infinity"],
    ["2", "2"],
  ])("%o → InputError naming it, nothing sent", async (value, shown) => {
    const error = await chat({ maxRetries: value } as Options);
    expect(error).toBeInstanceOf(InputError);
    expect(error).toMatchObject({
      field: "maxRetries",
      message: `\`maxRetries\` must be an integer from 0 to 100 (got ${shown})`,
    });
    expect(raw().requests).toHaveLength(0);
  });

  it.each([0, 1, 100])("%d is accepted", async (value) => {
    expect(await chat({ maxRetries: value })).toBe("Paris");
  });
});
