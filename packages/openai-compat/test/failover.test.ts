import OpenAI from "openai";
import { afterAll, beforeAll, expect, it } from "vitest";
import { startProxy } from "../src/index";
import { messages, TEXT, useHub } from "./helpers";

const ctx = useHub();
let proxy: Awaited<ReturnType<typeof startProxy>>;
let client: OpenAI;
const MODEL = "hfkit/router-multi";

beforeAll(async () => {
  // The router is the mock hub: `routerUrl` sends the router's calls (chat and catalog) there.
  proxy = await startProxy({
    target: "https://router.huggingface.co",
    routerUrl: ctx.hub.url,
    provider: ["together", "novita"],
    maxRetries: 0,
  });
  client = new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: "hf_caller", maxRetries: 0 });
});
afterAll(() => proxy.close());

const chats = () => ctx.hub.requests.filter((r) => r.method === "POST").map((r) => (r.body as { model: string }).model);

it("the proxy's provider list fails over before the first token; the answer names who served it", async () => {
  ctx.hub.inject({ type: "serverError", status: 502 }, { model: MODEL, times: 1 });
  const { data, response } = await client.chat.completions.create({ model: MODEL, messages }).withResponse();
  expect(data.choices[0]?.message.content).toBe(TEXT);
  expect(response.headers.get("x-inference-provider")).toBe("novita");
  expect(chats()).toEqual([`${MODEL}:together`, `${MODEL}:novita`]);
});

it("a streamed answer too, with the real openai client", async () => {
  ctx.hub.inject({ type: "serverError", status: 503 }, { model: MODEL, times: 1 });
  const { data: stream, response } = await client.chat.completions
    .create({ model: MODEL, messages, stream: true })
    .withResponse();
  let text = "";
  for await (const chunk of stream) text += chunk.choices[0]?.delta?.content ?? "";
  expect(text).toBe(TEXT);
  expect(response.headers.get("x-inference-provider")).toBe("novita");
  expect(chats()).toEqual([`${MODEL}:together`, `${MODEL}:novita`]);
});

it("a request's own provider list and fallbackModels win over the proxy's", async () => {
  ctx.hub.inject({ type: "serverError", status: 500 }, { model: MODEL, times: 1 });
  const body = { model: MODEL, messages, provider: ["hf-inference"], fallbackModels: ["hfkit/tgi-3.2"] };
  const out = await client.chat.completions.create(body as unknown as OpenAI.ChatCompletionCreateParamsNonStreaming);
  expect(out.choices[0]?.message.content).toBe(TEXT);
  // hf-inference is reached on its own path (`/hf-inference/models/{id}/...`), the model in the body without a suffix.
  expect(chats()).toEqual([MODEL, "hfkit/tgi-3.2"]);
  expect(ctx.hub.requests.filter((r) => r.method === "POST")[0]?.path).toBe(
    `/hf-inference/models/${MODEL}/v1/chat/completions`,
  );
});

it("every candidate failing is one OpenAI error naming each", async () => {
  ctx.hub.inject({ type: "serverError", status: 502 }, { model: MODEL });
  const error = await client.chat.completions.create({ model: MODEL, messages }).catch((e: unknown) => e);
  expect(error).toBeInstanceOf(OpenAI.APIError);
  expect((error as Error).message).toMatch(
    /Every candidate failed: hfkit\/router-multi:together .*hfkit\/router-multi:novita/,
  );
});
