import { describe, expect, it } from "vitest";
import { postJson, QUESTION, routerChat, useHub } from "./helpers.js";

const TOKEN = { authorization: "Bearer hf_test" };
const NOT_SUPPORTED = (model: string) => ({
  error: {
    message: `The requested model '${model}' is not supported by any provider you have enabled.`,
    type: "invalid_request_error",
    param: "model",
    code: "model_not_supported",
  },
});

describe("strict mode: what production refuses", () => {
  const hub = useHub({ strict: true });
  const chat = (path: string, model: string, headers: Record<string, string> = TOKEN) =>
    postJson(`${hub().url}${path}`, { model, messages: QUESTION }, headers);

  it("a request without a token is the router's 401; an hf_bad… token stays refused; a token is enough", async () => {
    for (const path of [
      "/v1/chat/completions",
      "/hf-inference/models/hfkit/tgi-3.2/v1/chat/completions",
      "/together/v1/images/generations",
    ]) {
      const res = await chat(path, "hfkit/tgi-3.2", {});
      expect([res.status, await res.json()], path).toEqual([401, { error: "Invalid username or password." }]);
    }
    expect((await chat("/v1/chat/completions", "hfkit/tgi-3.2", { authorization: "Bearer hf_bad_token" })).status).toBe(
      401,
    );
    expect((await chat("/v1/chat/completions", "hfkit/tgi-3.2")).status).toBe(200);
  });

  it("the Hub's model API and the router's model list answer without a token, as the real ones do", async () => {
    expect((await fetch(`${hub().url}/api/models/hfkit/tgi-3.2`)).status).toBe(200);
    expect((await fetch(`${hub().url}/v1/models`)).status).toBe(200);
  });

  it("an unknown model: the router's 400 model_not_supported (its 404 with a provider); hf-inference's 404; the Hub's 404", async () => {
    const router = await chat("/v1/chat/completions", "acme/unknown");
    expect([router.status, await router.json()]).toEqual([400, NOT_SUPPORTED("acme/unknown")]);
    const withProvider = await chat("/v1/chat/completions", "acme/unknown:together");
    expect([withProvider.status, withProvider.headers.get("x-inference-provider"), await withProvider.text()]).toEqual([
      404,
      "together",
      "Not Found",
    ]);
    for (const path of ["/hf-inference/models/acme/unknown/v1/chat/completions", "/models/acme/unknown"]) {
      const res = await postJson(`${hub().url}${path}`, { inputs: "Hi", messages: QUESTION }, TOKEN);
      expect([res.status, await res.json()], path).toEqual([404, { error: "Model acme/unknown does not exist" }]);
    }
    expect((await fetch(`${hub().url}/api/models/acme/unknown`, { headers: TOKEN })).status).toBe(404);
  });

  it("the models it serves answer: predefined, configured, hfkit/<task> and default-mapping ids", async () => {
    expect((await chat("/v1/chat/completions", "hfkit/router-multi:novita")).status).toBe(200);
    expect(
      (await postJson(`${hub().url}/hf-inference/models/hfkit/fill-mask`, { inputs: "[MASK] is a city." }, TOKEN))
        .status,
    ).toBe(200);
    expect(
      (await postJson(`${hub().url}/models/hfkit/text-to-image-fal`, { inputs: "a cat" }, TOKEN)).headers.get(
        "content-type",
      ),
    ).toBe("image/png");
  });
  it("a model of another task asked for text is refused: the router's 400, hf-inference's pipeline 404", async () => {
    const router = await chat("/v1/chat/completions", "hfkit/fill-mask");
    expect([router.status, await router.json()]).toEqual([400, NOT_SUPPORTED("hfkit/fill-mask")]);
    const own = await chat("/models/hfkit/text-to-image/v1/chat/completions", "tgi");
    expect([own.status, await own.json()]).toEqual([404, { error: "Not Found" }]);
  });
});

describe("lenient mode (the default)", () => {
  const hub = useHub();

  it("refuses a model id that cannot exist, as production always does: a path's 404, a body's 400", async () => {
    const long = `acme/${"x".repeat(92)}`;
    for (const model of [
      "acme/has space",
      "acme/a..b",
      "acme//b",
      "acme/b/c",
      "acme/-x",
      "acme--x/b",
      long,
      "acme/x:together",
    ].slice(0, 7)) {
      const res = await routerChat(hub(), model);
      expect([res.status, await res.json()], model).toEqual([400, NOT_SUPPORTED(model)]);
    }
    for (const id of ["acme%2Fhas%20space", "acme/has%20space", "acme/a..b", "acme/-x", encodeURIComponent(long)]) {
      const res = await postJson(`${hub().url}/models/${id}/v1/chat/completions`, { model: "tgi", messages: QUESTION });
      expect([res.status, await res.json()], id).toEqual([
        404,
        { error: `Model ${decodeURIComponent(id)} does not exist` },
      ]);
    }
    // An endpoint's name is not a Hub id: an endpoint serves what it is named.
    expect(
      (await postJson(`${hub().url}/endpoints/my endpoint/v1/chat/completions`, { model: "tgi", messages: QUESTION }))
        .status,
    ).toBe(200);
  });

  it("an unknown model answers the task its route asks, never another task's canned answer", async () => {
    const post = (path: string, body: unknown) =>
      postJson(`${hub().url}${path}`, body).then(async (res) => [res.status, await res.json()]);
    expect(await post("/models/acme/unknown/pipeline/feature-extraction", { inputs: "Paris" })).toEqual([
      200,
      [0.05, 0.1, 0.08, 0.5],
    ]);
    expect((await post("/models/acme/unknown", { inputs: "Paris is the [MASK] of France." }))[1][0]).toMatchObject({
      token_str: "paris",
    });
    expect(await post("/models/acme/unknown", { inputs: { question: "Where?", context: "In Paris" } })).toEqual([
      200,
      expect.objectContaining({ answer: "Paris" }),
    ]);
    expect(
      await post("/models/acme/unknown", { inputs: "a text", parameters: { candidate_labels: ["a", "b"] } }),
    ).toEqual([200, expect.objectContaining({ labels: ["a", "b"] })]);
    expect(await post("/models/acme/unknown", { inputs: { source_sentence: "a", sentences: ["a"] } })).toEqual([
      200,
      [1],
    ]);
    const wav = await fetch(`${hub().url}/models/acme/unknown`, { method: "POST", body: "RIFF\0\0\0\0WAVEfmt " });
    expect(await wav.json()).toEqual({ text: "The capital of France is Paris." });
    const image = await fetch(`${hub().url}/models/acme/unknown`, {
      method: "POST",
      body: new Uint8Array([0x89, 0x50, 0x4e, 0x47]),
    });
    expect((await image.json())[0]).toMatchObject({ label: "tabby cat" });
    // Text in, text out: text generation, as before.
    expect(await post("/models/acme/unknown", { inputs: "Hi" })).toEqual([
      200,
      [{ generated_text: "HiThe capital of France is Paris." }],
    ]);
  });
});
