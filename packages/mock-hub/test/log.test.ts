import { afterEach, expect, it, vi } from "vitest";
import { createMockHub, startMockHub, type MockHub } from "../src/index.js";
import { postJson, QUESTION } from "./helpers.js";

let hub: MockHub | undefined;
afterEach(async () => {
  await hub?.close();
  hub = undefined;
  vi.restoreAllMocks();
});

it("one line per request: method, path, model, status, time, the fault applied; never the token", async () => {
  const lines: string[] = [];
  hub = await startMockHub({ log: (line) => lines.push(line) });
  const secret = "hf_SecretToken123";
  const auth = { authorization: `Bearer ${secret}` };
  await postJson(`${hub.url}/v1/chat/completions`, { model: "hfkit/vllm", messages: QUESTION }, auth);
  hub.inject({ type: "rateLimit" }, { model: "hfkit/tgi-2.0", times: 1 });
  await postJson(`${hub.url}/models/hfkit/tgi-2.0/v1/chat/completions`, { messages: QUESTION }, auth);
  await fetch(`${hub.url}/api/models/hfkit/tgi-3.2?expand[]=tags&access_token=${secret}&key=abc`, { headers: auth });
  hub.inject({ type: "refused" }, { model: "hfkit/sglang", times: 1 });
  await postJson(`${hub.url}/v1/chat/completions`, { model: "hfkit/sglang", messages: QUESTION }, auth).catch(
    () => undefined,
  );
  expect(lines).toHaveLength(4);
  expect(lines[0]).toMatch(/^POST \/v1\/chat\/completions model=hfkit\/vllm 200 \d+ms$/);
  expect(lines[1]).toMatch(
    /^POST \/models\/hfkit\/tgi-2\.0\/v1\/chat\/completions model=hfkit\/tgi-2\.0 429 \d+ms fault=rateLimit$/,
  );
  expect(lines[2]).toMatch(
    /^GET \/api\/models\/hfkit\/tgi-3\.2\?expand\[\]=tags&access_token=\*\*\*&key=\*\*\* model=hfkit\/tgi-3\.2 200 \d+ms$/,
  );
  expect(lines[3]).toMatch(/^POST \/v1\/chat\/completions model=hfkit\/sglang refused \d+ms fault=refused$/);
  for (const line of lines) expect(line).not.toContain(secret);
});

it("a model id from a body stays on its line; log: true writes with console.error; no log by default", async () => {
  const error = vi.spyOn(console, "error").mockImplementation(() => {});
  const quiet = createMockHub();
  await quiet.handle(new Request("http://hub.test/v1/models"));
  expect(error).not.toHaveBeenCalled();
  const loud = createMockHub({ log: true });
  await loud.handle(
    new Request("http://hub.test/v1/chat/completions", {
      method: "POST",
      body: JSON.stringify({ model: "a\nb", messages: QUESTION }),
    }),
  );
  expect(error).toHaveBeenCalledTimes(1);
  expect(error.mock.calls[0]?.[0]).toMatch(/^POST \/v1\/chat\/completions model=a\?b 400 \d+ms$/);
});
