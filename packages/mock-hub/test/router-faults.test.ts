import { describe, expect, it } from "vitest";
import { createMockHub } from "../src/index.js";
import { QUESTION, postJson, routerChat, useHub } from "./helpers.js";

const MODEL = "hfkit/router-multi";
const TEXT = "The capital of France is Paris.";
const hub = useHub();

const chat = (model: string, extra: Record<string, unknown> = {}) => routerChat(hub(), model, extra);
const provider = (response: Response) => response.headers.get("x-inference-provider");
const TOOLS = [
  {
    type: "function",
    function: { name: "get_weather", parameters: { type: "object", properties: { city: { type: "string" } } } },
  },
];

/** The other provider of the model answers in full, named in its header. */
async function expectAnswered(model: string, name: string, extra: Record<string, unknown> = {}): Promise<void> {
  const response = await chat(model, extra);
  expect([response.status, provider(response)]).toEqual([200, name]);
  const message = ((await response.json()) as { choices: { message: { content: string | null } }[] }).choices[0]
    ?.message;
  expect(message).toBeDefined();
  if (extra.tools === undefined) expect(message?.content).toBe(TEXT);
}

describe("refused: no HTTP answer at all", () => {
  it("fetch rejects with a TypeError (the socket closed before a status line); the model's other providers answer", async () => {
    const rule = hub().inject({ type: "refused" }, { model: MODEL, provider: "together" });
    const failure = await chat(`${MODEL}:together`).then(
      (response) => response,
      (error: unknown) => error,
    );
    expect(failure).toBeInstanceOf(TypeError);
    expect((failure as TypeError).cause).toMatchObject({ code: "UND_ERR_SOCKET" });
    await expectAnswered(`${MODEL}:novita`, "novita");
    await expect(chat(MODEL)).rejects.toThrow(TypeError); // the router's pick is together
    expect(rule.hits).toBe(2);
    expect(hub().requests).toHaveLength(3); // the hub saw each request: only the answer is missing
  });

  it("times: the first N of that provider's requests are refused, then it answers", async () => {
    const rule = hub().inject({ type: "refused" }, { model: MODEL, provider: "novita", times: 2 });
    await expect(chat(`${MODEL}:novita`)).rejects.toThrow(TypeError);
    await expectAnswered(`${MODEL}:together`, "together");
    await expect(chat(`${MODEL}:novita`)).rejects.toThrow(TypeError);
    await expectAnswered(`${MODEL}:novita`, "novita");
    expect([rule.hits, rule.active]).toEqual([2, false]);
  });

  it("without a provider, any request for the model; the core's handle() answers Response.error()", async () => {
    hub().inject({ type: "refused" }, { model: "hfkit/tgi-3.2", times: 1 });
    await expect(
      postJson(`${hub().url}/models/hfkit/tgi-3.2/v1/chat/completions`, { messages: QUESTION }),
    ).rejects.toThrow(TypeError);
    const core = createMockHub();
    core.inject({ type: "refused" }, { provider: "together", times: 1 });
    const request = () =>
      new Request("http://hub.test/v1/chat/completions", {
        method: "POST",
        body: JSON.stringify({ model: `${MODEL}:together`, messages: QUESTION }),
      });
    const refused = await core.handle(request());
    expect([refused.type, refused.status, [...refused.headers]]).toEqual(["error", 0, []]);
    expect((await core.handle(request())).status).toBe(200);
    core.dispose();
  });
});

describe("the router's refusals of one provider", () => {
  it("modelNotServed: 400 as the router answers for a provider that does not serve the model", async () => {
    hub().inject({ type: "modelNotServed" }, { model: MODEL, provider: "together" });
    const refused = await chat(`${MODEL}:together`);
    expect([refused.status, provider(refused)]).toEqual([400, "together"]);
    expect(await refused.json()).toEqual({ error: "Model not supported by provider together" });
    // The same words as the router's own refusal of a provider not in the model's list.
    expect(await (await chat(`${MODEL}:groq`)).json()).toEqual({ error: "Model not supported by provider groq" });
    await expectAnswered(`${MODEL}:novita`, "novita");
  });

  it("providerNotEnabled: 400 model_not_supported, for that provider only", async () => {
    const rule = hub().inject({ type: "providerNotEnabled" }, { model: MODEL, provider: "hf-inference", times: 1 });
    const refused = await chat(`${MODEL}:hf-inference`);
    expect([refused.status, provider(refused)]).toEqual([400, "hf-inference"]);
    expect(await refused.json()).toEqual({
      error: {
        message: `The requested model '${MODEL}' is not supported by any provider you have enabled.`,
        type: "invalid_request_error",
        param: "model",
        code: "model_not_supported",
      },
    });
    await expectAnswered(`${MODEL}:together`, "together");
    await expectAnswered(`${MODEL}:hf-inference`, "hf-inference");
    expect(rule.active).toBe(false);
  });

  it("toolsUnsupported: 400 for a request with tools; one without tools is answered and does not count", async () => {
    const rule = hub().inject({ type: "toolsUnsupported" }, { model: MODEL, provider: "novita", times: 1 });
    await expectAnswered(`${MODEL}:novita`, "novita", { tools: [] });
    await expectAnswered(`${MODEL}:novita`, "novita");
    expect(rule.hits).toBe(0);
    await expectAnswered(`${MODEL}:together`, "together", { tools: TOOLS });
    const refused = await chat(`${MODEL}:novita`, { tools: TOOLS, stream: true });
    expect([refused.status, provider(refused), refused.headers.get("content-type")]).toEqual([
      400,
      "novita",
      "application/json",
    ]);
    expect(await refused.json()).toEqual({
      error: {
        message: `Provider novita does not support tools for model '${MODEL}'.`,
        type: "invalid_request_error",
        param: "tools",
        code: "tools_not_supported",
      },
    });
    expect([rule.hits, rule.active]).toEqual([1, false]);
    await expectAnswered(`${MODEL}:novita`, "novita", { tools: TOOLS });
  });

  it("without a provider: whichever provider the router picks; never a request that does not go through the router", async () => {
    const rule = hub().inject({ type: "modelNotServed" }, { model: MODEL });
    const direct = await postJson(`${hub().url}/models/${MODEL}/v1/chat/completions`, { messages: QUESTION });
    expect(direct.status).toBe(200);
    await direct.text();
    expect(rule.hits).toBe(0);
    const picked = await chat(MODEL);
    expect([picked.status, provider(picked)]).toEqual([400, "together"]);
    expect(await picked.json()).toEqual({ error: "Model not supported by provider together" });
    expect(await (await chat(`${MODEL}:novita`)).json()).toEqual({ error: "Model not supported by provider novita" });
  });

  it("the router's Responses route too", async () => {
    hub().inject({ type: "toolsUnsupported" }, { model: MODEL, provider: "together" });
    const body = {
      model: `${MODEL}:together`,
      input: "Hi",
      tools: [{ type: "function", name: "get_weather", parameters: {} }],
    };
    const refused = await postJson(`${hub().url}/v1/responses`, body);
    expect([refused.status, provider(refused)]).toEqual([400, "together"]);
    expect(await refused.json()).toMatchObject({ error: { code: "tools_not_supported" } });
    const answered = await postJson(`${hub().url}/v1/responses`, { ...body, model: `${MODEL}:novita` });
    expect([answered.status, provider(answered)]).toEqual([200, "novita"]);
    await answered.text();
  });
});

describe("the catalog", () => {
  it("a provider may say it takes no tools (supportsTools: false), as novita does for hfkit/router-multi", async () => {
    const { data } = (await (await fetch(`${hub().url}/v1/models`)).json()) as {
      data: { id: string; providers: { provider: string; supports_tools: boolean }[] }[];
    };
    const providers = data.find((model) => model.id === MODEL)?.providers;
    expect(providers?.map((p) => [p.provider, p.supports_tools])).toEqual([
      ["together", true],
      ["novita", false],
      ["hf-inference", true],
    ]);
  });
});
