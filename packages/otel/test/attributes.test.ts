/** The conventions' attributes from hfkit's event fields: the request's parameters and the server's host. */
import { describe, expect, it } from "vitest";
import { requestAttributes, serverAttributes } from "../src/attributes";

describe("requestAttributes", () => {
  it("names each parameter as gen_ai.request.*; max_new_tokens is max_tokens; n only when not 1; stop split", () => {
    expect(
      requestAttributes({
        temperature: 0,
        top_k: 40,
        max_new_tokens: 9,
        frequency_penalty: 0.1,
        presence_penalty: -0.2,
        n: 3,
        stop: "a,b",
      }),
    ).toEqual({
      "gen_ai.request.temperature": 0,
      "gen_ai.request.top_k": 40,
      "gen_ai.request.max_tokens": 9,
      "gen_ai.request.frequency_penalty": 0.1,
      "gen_ai.request.presence_penalty": -0.2,
      "gen_ai.request.choice.count": 3,
      "gen_ai.request.stop_sequences": ["a", "b"],
    });
    expect(requestAttributes({ n: 1, stop: "", seed: "7", temperature: true })).toEqual({});
  });
});

describe("serverAttributes", () => {
  it.each([
    ["router.huggingface.co", { "server.address": "router.huggingface.co" }],
    ["127.0.0.1:8080", { "server.address": "127.0.0.1", "server.port": 8080 }],
    ["[::1]:3000", { "server.address": "::1", "server.port": 3000 }],
    ["[::1]", { "server.address": "::1" }],
    ["", {}],
  ])("%s", (host, expected) => {
    expect(serverAttributes(host)).toEqual(expected);
  });
});
