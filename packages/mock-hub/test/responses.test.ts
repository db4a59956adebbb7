import { describe, expect, it } from "vitest";
import { postJson, useHub } from "./helpers.js";

const hub = useHub({
  models: { "acme/thinker": { backend: "vllm", providers: ["together"], reasoning: "Short thought." } },
});

const TEXT = "The capital of France is Paris.";
const TOOL = {
  type: "function",
  name: "get_weather",
  parameters: { type: "object", properties: { city: { type: "string" } }, required: ["city"] },
};
type Json = Record<string, any>;

const routerResponses = (body: Json) => postJson(`${hub().url}/v1/responses`, body);

/** Each frame's `event:` name and its data. */
async function frames(response: Response): Promise<Array<{ event: string; data: Json }>> {
  const text = await response.text();
  expect(text).not.toContain("[DONE]");
  return text
    .split("\n\n")
    .filter(Boolean)
    .map((frame) => {
      const [eventLine = "", dataLine = ""] = frame.split("\n");
      return { event: eventLine.replace(/^event: /, ""), data: JSON.parse(dataLine.replace(/^data: /, "")) as Json };
    });
}

describe("POST /v1/responses on the router", () => {
  it("not streamed: a response with the message, usage, the arguments echoed", async () => {
    const res = await routerResponses({
      model: "hfkit/router-multi",
      input: "Hi",
      instructions: "Be brief",
      temperature: 0.3,
    });
    expect(res.status).toBe(200);
    expect(res.headers.get("x-inference-provider")).toBe("together");
    const body = (await res.json()) as Json;
    expect(body).toMatchObject({
      object: "response",
      status: "completed",
      model: "hfkit/router-multi",
      instructions: "Be brief",
      temperature: 0.3,
      error: null,
    });
    expect(body.id).toMatch(/^resp_[0-9a-f]{48}$/);
    expect(body.output).toMatchObject([
      { type: "message", role: "assistant", status: "completed", content: [{ type: "output_text", text: TEXT }] },
    ]);
    expect(body.usage.total_tokens).toBe(body.usage.input_tokens + body.usage.output_tokens);
  });

  it("streamed: OpenAI's sequence, one word a delta, each frame's event its data's type, numbered from 0", async () => {
    const seen = await frames(await routerResponses({ model: "hfkit/router-multi", input: "Hi", stream: true }));
    expect(seen.map((f) => f.event)).toEqual([
      "response.created",
      "response.in_progress",
      "response.output_item.added",
      "response.content_part.added",
      ...Array(6).fill("response.output_text.delta"),
      "response.output_text.done",
      "response.content_part.done",
      "response.output_item.done",
      "response.completed",
    ]);
    expect(seen.map((f) => f.data.type)).toEqual(seen.map((f) => f.event));
    expect(seen.map((f) => f.data.sequence_number)).toEqual(seen.map((_, i) => i));
    expect(seen[0]?.data.response).toMatchObject({ status: "in_progress", output: [] });
    expect(seen.at(-1)?.data.response.output[0].content[0].text).toBe(TEXT);
  });

  it("a reasoning model: a reasoning item first, its text in reasoning_text deltas", async () => {
    const seen = await frames(await routerResponses({ model: "acme/thinker", input: "Hi", stream: true }));
    const reasoning = seen
      .filter((f) => f.event === "response.reasoning_text.delta")
      .map((f) => f.data.delta)
      .join("");
    expect(reasoning).toBe("Short thought.");
    expect(seen.at(-1)?.data.response.output.map((item: Json) => item.type)).toEqual(["reasoning", "message"]);
  });

  it("tools: a function call when the prompt asks for a tool (or tool_choice requires one), else the message", async () => {
    const call = (await (
      await routerResponses({ model: "hfkit/router-multi", input: "Use the tool for Paris", tools: [TOOL] })
    ).json()) as Json;
    expect(call.output).toMatchObject([
      { type: "function_call", name: "get_weather", arguments: '{"city":"Paris"}', status: "completed" },
    ]);
    expect(call.output[0].call_id).toMatch(/^call_/);
    const required = (await (
      await routerResponses({ model: "hfkit/router-multi", input: "Hi", tools: [TOOL], tool_choice: "required" })
    ).json()) as Json;
    expect(required.output[0].type).toBe("function_call");
    const plain = (await (
      await routerResponses({ model: "hfkit/router-multi", input: "Hi", tools: [TOOL] })
    ).json()) as Json;
    expect(plain.output[0].type).toBe("message");
    const streamed = await frames(
      await routerResponses({ model: "hfkit/router-multi", input: "Call get_weather", tools: [TOOL], stream: true }),
    );
    const args = streamed
      .filter((f) => f.event === "response.function_call_arguments.delta")
      .map((f) => f.data.delta)
      .join("");
    expect(args).toBe('{"city":"Paris"}');
  });

  it("max_output_tokens: status incomplete, response.incomplete last", async () => {
    const seen = await frames(
      await routerResponses({ model: "hfkit/router-multi", input: "Hi", max_output_tokens: 2, stream: true }),
    );
    expect(seen.at(-1)?.event).toBe("response.incomplete");
    expect(seen.at(-1)?.data.response.incomplete_details).toEqual({ reason: "max_output_tokens" });
  });

  it("faults: responseFailed sends response.failed after its events; overloadedInStream an error event", async () => {
    hub().inject({ type: "responseFailed", afterChunks: 2, code: "server_error", message: "Boom" }, { times: 1 });
    const failed = await frames(await routerResponses({ model: "hfkit/router-multi", input: "Hi", stream: true }));
    expect(failed.map((f) => f.event)).toEqual(["response.created", "response.in_progress", "response.failed"]);
    expect(failed[2]?.data).toMatchObject({
      sequence_number: 2,
      response: { status: "failed", error: { code: "server_error", message: "Boom" } },
    });
    hub().inject({ type: "overloadedInStream" }, { times: 1 });
    const overloaded = await frames(await routerResponses({ model: "hfkit/router-multi", input: "Hi", stream: true }));
    expect(overloaded).toEqual([
      {
        event: "error",
        data: {
          type: "error",
          code: "server_is_overloaded",
          message: "Model is overloaded",
          param: null,
          sequence_number: 0,
        },
      },
    ]);
  });

  it('any model the body names is served (the default model\'s own route answers for none or "tgi")', async () => {
    const named = await routerResponses({ model: "org/any-model", input: "Hi" });
    expect(((await named.json()) as Json).output[0].content[0].text).toBe(TEXT);
    expect(named.status).toBe(200);
    expect((await routerResponses({ model: "tgi", input: "Hi" })).status).toBe(404);
  });

  it("a body without input: 400 invalid_request_error", async () => {
    const res = await routerResponses({ model: "hfkit/router-multi" });
    expect(res.status).toBe(400);
    expect(((await res.json()) as Json).error.param).toBe("input");
  });
});

describe("/v1/responses on the model servers", () => {
  it("vLLM serves it, on an endpoint and on hf-inference paths", async () => {
    for (const path of ["/endpoints/hfkit/vllm/v1/responses", "/models/hfkit/vllm/v1/responses"]) {
      const body = (await (await postJson(`${hub().url}${path}`, { input: "Hi" })).json()) as Json;
      expect(body.output.map((item: Json) => item.type)).toEqual(["reasoning", "message"]);
    }
  });

  it("TGI answers axum's empty 404; the pipeline its own 404 — the route is not theirs", async () => {
    const tgi = await postJson(`${hub().url}/models/hfkit/tgi-3.2/v1/responses`, { input: "Hi" });
    expect(tgi.status).toBe(404);
    expect(await tgi.text()).toBe("");
    const endpoint = await postJson(`${hub().url}/endpoints/my-tgi/v1/responses`, { input: "Hi" });
    expect(endpoint.status).toBe(404);
    const pipeline = await postJson(`${hub().url}/models/hfkit/transformers-chat/v1/responses`, { input: "Hi" });
    expect(pipeline.status).toBe(404);
    expect(await pipeline.json()).toEqual({ error: "Not Found" });
  });
});
