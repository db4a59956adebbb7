/** `@huggingface/inference`'s other root exports: the provider lists, `setLogger`. */
import { afterEach, expect, it } from "vitest";
import { getLogger, INFERENCE_PROVIDERS, InferenceClient, PROVIDERS_OR_POLICIES, setLogger } from "../src/index";
import { json, messages, recordingFetch } from "./helpers";

afterEach(() => setLogger(console));

it("INFERENCE_PROVIDERS and PROVIDERS_OR_POLICIES list the providers, and auto", () => {
  expect(INFERENCE_PROVIDERS).toContain("hf-inference");
  expect(INFERENCE_PROVIDERS).toContain("together");
  expect(PROVIDERS_OR_POLICIES).toEqual([...INFERENCE_PROVIDERS, "auto"]);
});

it("setLogger: a call without a logger option warns there; a call's own logger still wins", async () => {
  const global: string[] = [];
  const own: string[] = [];
  setLogger({ warn: (m) => void global.push(m) });
  expect(getLogger().warn).toBeTypeOf("function");
  let n = 0;
  const loadingOnce = () =>
    n++ === 0
      ? json({ error: "Model o/m is currently loading", estimated_time: 0.01 }, 503)
      : json({ choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }] });
  const rec = recordingFetch(loadingOnce);
  await new InferenceClient("", { endpointUrl: "https://a.test", fetch: rec.fetch }).chatCompletion({
    model: "o/set-logger-1",
    messages,
  });
  expect(global).toEqual([expect.stringMatching(/is loading/)]);
  n = 0;
  await new InferenceClient("", {
    endpointUrl: "https://a.test",
    fetch: rec.fetch,
    logger: { warn: (m) => void own.push(m) },
  }).chatCompletion({ model: "o/set-logger-2", messages });
  expect(own).toEqual([expect.stringMatching(/is loading/)]);
  expect(global).toHaveLength(1);
});
