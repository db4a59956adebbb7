/** The token from the environment: HF_TOKEN, then HUGGING_FACE_HUB_TOKEN, where none is given; "" sends none. */
import { afterEach, expect, it } from "vitest";
import { chatCompletion, InferenceClient, InputError } from "../src/index";
import { json, messages, recordingFetch } from "./helpers";

const answer = { choices: [{ index: 0, message: { role: "assistant", content: "ok" }, finish_reason: "stop" }] };
const endpointUrl = "https://e.test";

afterEach(() => {
  delete process.env.HF_TOKEN;
  delete process.env.HUGGING_FACE_HUB_TOKEN;
});

async function authorizationOf(
  call: (fetch: typeof globalThis.fetch) => Promise<unknown>,
): Promise<string | undefined> {
  const rec = recordingFetch(() => json(answer));
  await call(rec.fetch as typeof globalThis.fetch);
  return rec.seen[0]?.headers.authorization;
}

it("HF_TOKEN is sent when no token is given, by the client and the standalone functions", async () => {
  process.env.HF_TOKEN = "hf_fromEnvironment";
  expect(
    await authorizationOf((fetch) =>
      new InferenceClient(undefined, { endpointUrl, fetch }).chatCompletion({ messages }),
    ),
  ).toBe("Bearer hf_fromEnvironment");
  expect(
    await authorizationOf((fetch) => new InferenceClient().chatCompletion({ messages }, { endpointUrl, fetch })),
  ).toBe("Bearer hf_fromEnvironment");
  expect(await authorizationOf((fetch) => chatCompletion({ endpointUrl, messages }, { fetch }))).toBe(
    "Bearer hf_fromEnvironment",
  );
});

it('HUGGING_FACE_HUB_TOKEN when HF_TOKEN is not set; a given token wins; "" sends none', async () => {
  process.env.HUGGING_FACE_HUB_TOKEN = "hf_hubName";
  expect(
    await authorizationOf((fetch) =>
      new InferenceClient(undefined, { endpointUrl, fetch }).chatCompletion({ messages }),
    ),
  ).toBe("Bearer hf_hubName");
  process.env.HF_TOKEN = "hf_first";
  expect(
    await authorizationOf((fetch) =>
      new InferenceClient(undefined, { endpointUrl, fetch }).chatCompletion({ messages }),
    ),
  ).toBe("Bearer hf_first");
  expect(
    await authorizationOf((fetch) =>
      new InferenceClient("hf_given", { endpointUrl, fetch }).chatCompletion({ messages }),
    ),
  ).toBe("Bearer hf_given");
  expect(
    await authorizationOf((fetch) => new InferenceClient("", { endpointUrl, fetch }).chatCompletion({ messages })),
  ).toBeUndefined();
  expect(
    await authorizationOf((fetch) => chatCompletion({ accessToken: "", endpointUrl, messages }, { fetch })),
  ).toBeUndefined();
});

it("a malformed HF_TOKEN is an InputError naming it, the value not echoed, nothing sent", async () => {
  process.env.HF_TOKEN = "hf_bad token";
  const rec = recordingFetch(() => json(answer));
  const error = await new InferenceClient(undefined, { endpointUrl, fetch: rec.fetch })
    .chatCompletion({ messages })
    .catch((e: unknown) => e);
  expect(error).toBeInstanceOf(InputError);
  expect(error).toMatchObject({ field: "HF_TOKEN" });
  expect((error as Error).message).not.toContain("hf_bad");
  expect(rec.seen).toHaveLength(0);
});
