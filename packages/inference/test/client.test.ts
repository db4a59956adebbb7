import { afterEach, describe, expect, it, vi } from "vitest";
import pkg from "../package.json";
import {
  chatCompletion,
  HfInference,
  HfInferenceEndpoint,
  InferenceClient,
  InferenceClientEndpoint,
  VERSION,
} from "../src/index";
import { chunk, event, json, messages, recordingFetch, sse } from "./helpers";

const answer = {
  id: "a",
  created: 1,
  model: "m",
  system_fingerprint: "",
  choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }],
  usage: { prompt_tokens: 1, completion_tokens: 1, total_tokens: 2 },
};

function client(options: Record<string, unknown> = {}, token = "hf_token") {
  const rec = recordingFetch(() => json(answer, 200, { "x-request-id": "req-1" }));
  return { ...rec, client: new InferenceClient(token, { fetch: rec.fetch, ...options }) };
}

describe("where a call goes", () => {
  it.each([
    [{ endpointUrl: "https://ep.test" }, "m", "https://ep.test/v1/chat/completions", "m"],
    [{ endpointUrl: "https://ep.test/" }, undefined, "https://ep.test/v1/chat/completions", "tgi"],
    [{ endpointUrl: "https://ep.test/v1" }, "m", "https://ep.test/v1/chat/completions", "m"],
    [{ endpointUrl: "https://ep.test/v1/chat/completions" }, "m", "https://ep.test/v1/chat/completions", "m"],
    [{ baseUrl: "http://hub.test/" }, "org/name", "http://hub.test/models/org/name/v1/chat/completions", "org/name"],
    [
      { provider: "hf-inference" },
      "org/name",
      "https://router.huggingface.co/hf-inference/models/org/name/v1/chat/completions",
      "org/name",
    ],
    [{}, "org/name", "https://router.huggingface.co/v1/chat/completions", "org/name"],
    [{ provider: "auto" }, "org/name", "https://router.huggingface.co/v1/chat/completions", "org/name"],
    [{ provider: "together" }, "org/name", "https://router.huggingface.co/v1/chat/completions", "org/name:together"],
    [{ provider: "together" }, "org/name:groq", "https://router.huggingface.co/v1/chat/completions", "org/name:groq"],
  ])("%j with model %s -> %s", async (options, model, url, bodyModel) => {
    const { client: c, seen } = client(options);
    await c.chatCompletion({ model, messages });
    expect(seen[0]!.url).toBe(url);
    expect(seen[0]!.body.model).toBe(bodyModel);
  });

  it("endpoint() binds a client to an endpoint; model is optional there", async () => {
    const { client: c, seen } = client({ baseUrl: "http://hub.test" });
    await c.endpoint("https://ep.test").chatCompletion({ messages });
    expect(seen[0]!.url).toBe("https://ep.test/v1/chat/completions");
    expect(seen[0]!.headers.authorization).toBe("Bearer hf_token");
  });

  it("per-call args and options override the client's", async () => {
    const { client: c, seen } = client({ provider: "together" });
    await c.chatCompletion({ model: "o/m", messages, provider: "hf-inference", accessToken: "hf_other" });
    expect(seen[0]!.url).toContain("/hf-inference/models/o/m/");
    expect(seen[0]!.headers.authorization).toBe("Bearer hf_other");
    await c.chatCompletion({ model: "o/m", messages }, { endpointUrl: "https://x.test" });
    expect(seen[1]!.url).toBe("https://x.test/v1/chat/completions");
  });

  it("HfInference, InferenceClientEndpoint and HfInferenceEndpoint are the same client", async () => {
    expect(new HfInference("t")).toBeInstanceOf(InferenceClient);
    const rec = recordingFetch(() => json(answer));
    await new InferenceClientEndpoint("https://a.test", "t", { fetch: rec.fetch }).chatCompletion({ messages });
    await new HfInferenceEndpoint("https://b.test", "t", { fetch: rec.fetch }).chatCompletion({ messages });
    expect(rec.seen.map((s) => s.url)).toEqual([
      "https://a.test/v1/chat/completions",
      "https://b.test/v1/chat/completions",
    ]);
  });

  it("InferenceClientEndpoint takes @huggingface/inference's (token, {endpointUrl}) form: the token is sent, not parsed as a URL", async () => {
    const rec = recordingFetch(() => json(answer));
    await new InferenceClientEndpoint("hf_token", { endpointUrl: "https://c.test", fetch: rec.fetch }).chatCompletion({
      messages,
    });
    await new InferenceClientEndpoint(undefined, { endpointUrl: "https://d.test", fetch: rec.fetch }).chatCompletion({
      messages,
    });
    expect(rec.seen.map((s) => s.url)).toEqual([
      "https://c.test/v1/chat/completions",
      "https://d.test/v1/chat/completions",
    ]);
    expect(rec.seen.map((s) => s.headers.authorization)).toEqual(["Bearer hf_token", undefined]);
  });
});

describe("requests", () => {
  afterEach(() => vi.unstubAllGlobals());

  it("sends the token as a Bearer header only, JSON, and a User-Agent outside browsers", async () => {
    const { client: c, seen } = client({ baseUrl: "http://hub.test" });
    await c.chatCompletion({ model: "o/m", messages });
    const req = seen[0]!;
    expect(req.headers.authorization).toBe("Bearer hf_token");
    expect(req.headers["content-type"]).toBe("application/json");
    expect(req.headers["user-agent"]).toBe(`hfkit/${VERSION}`);
    expect(req.url).not.toContain("hf_token");
    expect(JSON.stringify(req.body)).not.toContain("hf_token");
    expect(req.init.credentials).toBeUndefined();
    expect(req.init.cache).toBeUndefined();
  });

  it("no token, no Authorization header", async () => {
    const { client: c, seen } = client({ baseUrl: "http://hub.test" }, "");
    await c.chatCompletion({ model: "o/m", messages });
    expect(seen[0]!.headers.authorization).toBeUndefined();
  });

  it("headers, billTo, use_cache and fetchOptions", async () => {
    const { client: c, seen } = client({ baseUrl: "http://hub.test", headers: { "X-Extra": "1" } });
    const dispatcher = { marker: true };
    await c.chatCompletion(
      { model: "o/m", messages },
      { billTo: "my-org", use_cache: false, fetchOptions: { dispatcher } },
    );
    expect(seen[0]!.headers["x-extra"]).toBe("1");
    expect(seen[0]!.headers["x-hf-bill-to"]).toBe("my-org");
    expect(seen[0]!.headers["x-use-cache"]).toBe("false");
    expect((seen[0]!.init as { dispatcher?: unknown }).dispatcher).toBe(dispatcher);
  });

  it("looks the global fetch up at call time and calls it unbound", async () => {
    const c = new InferenceClient("t", { baseUrl: "http://hub.test" });
    const thisValues: unknown[] = [];
    vi.stubGlobal("fetch", function (this: unknown) {
      thisValues.push(this);
      return Promise.resolve(json(answer));
    });
    const out = await c.chatCompletion({ model: "o/m", messages });
    expect(out.choices[0]?.message.content).toBe("ok");
    expect(thisValues).toEqual([undefined]);
  });

  it("onResponse sees status, headers, url and request id", async () => {
    const { client: c } = client({ baseUrl: "http://hub.test" });
    const seen: unknown[] = [];
    await c.chatCompletion(
      { model: "o/m", messages },
      { onResponse: (r) => seen.push([r.status, r.requestId, r.url]) },
    );
    expect(seen).toEqual([[200, "req-1", "http://hub.test/models/o/m/v1/chat/completions"]]);
  });

  it("refuses a body without getReader (node-fetch) with a clear error", async () => {
    const nodeFetchLike = async () =>
      ({
        ok: true,
        status: 200,
        headers: new Headers({ "content-type": "text/event-stream" }),
        body: { pipe() {} },
      }) as unknown as Response;
    const c = new InferenceClient("t", { endpointUrl: "http://ep.test", fetch: nodeFetchLike });
    await expect(c.chatCompletionStream({ messages }).next()).rejects.toThrow(/node-fetch/);
  });

  it("the version sent is the package's", () => {
    expect(VERSION).toBe(pkg.version);
  });
});

describe("chatCompletion", () => {
  it("answers the ChatCompletionOutput, normalised", async () => {
    const rec = recordingFetch(() =>
      json({ ...answer, choices: [{ ...answer.choices[0], finish_reason: "eos_token" }] }),
    );
    const out = await chatCompletion({ model: "o/m", messages }, { baseUrl: "http://hub.test", fetch: rec.fetch });
    expect(out.choices[0]?.finish_reason).toBe("stop");
    expect(out.usage.total_tokens).toBe(2);
    expect(rec.seen[0]!.body.stream).toBe(false);
  });

  it("streams through the client with the same idiom", async () => {
    const rec = recordingFetch(() => sse(event(chunk("Hel")) + event(chunk("lo", "stop"))));
    const c = new InferenceClient("t", { endpointUrl: "http://ep.test", fetch: rec.fetch });
    let text = "";
    for await (const ch of c.chatCompletionStream({ messages })) text += ch.choices[0]?.delta?.content ?? "";
    expect(text).toBe("Hello");
  });
});
