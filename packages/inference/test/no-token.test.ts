/**
 * No token is no token: `""` or white space, given to the client, to a call or as HF_TOKEN, is no token at all,
 * never a provider's key. Against the mock hub (the variables `hfkit mock-hub` prints) none is needed; a server
 * that wants one and got none says so, naming HF_TOKEN once.
 */
import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { AuthenticationError, chatCompletion, InferenceClient, textToImage } from "../src/index";
import { mappingMemory } from "../src/targets/providers/mapping";
import { json, messages, recordingFetch } from "./helpers";

const MODEL = "hfkit/router-multi";
const TEXT = "The capital of France is Paris.";
const quiet = { warn: () => {} };
let hub: MockHub;

beforeAll(async () => {
  hub = await startMockHub();
});
afterAll(() => hub.close());
beforeEach(() => {
  hub.reset();
  mappingMemory.clear();
  vi.stubEnv("HF_ENDPOINT", hub.url);
  vi.stubEnv("HF_INFERENCE_ENDPOINT", hub.url);
  vi.stubEnv("HF_TOKEN", "");
  vi.stubEnv("HUGGING_FACE_HUB_TOKEN", "");
});
afterEach(() => vi.unstubAllEnvs());

const authorizations = () => hub.requests.map((r) => r.headers.authorization);
const answerOf = (out: { choices: Array<{ message: { content?: string | null } }> }) => out.choices[0]?.message.content;

describe("against the mock hub, a named provider and no token", () => {
  it('new InferenceClient(""), white space, undefined and HF_TOKEN="" all answer, sending no Authorization', async () => {
    for (const token of ["", "   ", "\n", undefined]) {
      const client = new InferenceClient(token, { logger: quiet });
      const out = await client.chatCompletion({ model: MODEL, messages, provider: "together" });
      expect(answerOf(out), JSON.stringify(token)).toBe(TEXT);
    }
    expect(authorizations()).toEqual([undefined, undefined, undefined, undefined]);
  });

  it('accessToken: "" on a call, and a provider list (failover), answer too', async () => {
    expect(answerOf(await chatCompletion({ accessToken: "", model: MODEL, messages, provider: "novita" }))).toBe(TEXT);
    const client = new InferenceClient("", { logger: quiet });
    expect(answerOf(await client.chatCompletion({ model: MODEL, messages, provider: ["together", "novita"] }))).toBe(
      TEXT,
    );
    expect(
      answerOf(await client.chatCompletion({ accessToken: " ", model: MODEL, messages, provider: "together" })),
    ).toBe(TEXT);
    for (const accessToken of [" ", "\t"]) {
      const failover = {
        accessToken,
        model: MODEL,
        messages,
        provider: ["together", "novita"],
        fallbackModels: [MODEL],
      };
      expect(answerOf(await client.chatCompletion(failover)), JSON.stringify(accessToken)).toBe(TEXT);
    }
    expect(authorizations().every((value) => value === undefined)).toBe(true);
  });

  it('a task on a named provider goes through the router, not to the provider\'s own API as if "" were its key', async () => {
    const image = await textToImage({
      accessToken: "",
      model: "hfkit/text-to-image",
      provider: "together",
      inputs: "a cat",
    });
    expect(image).toBeInstanceOf(Blob);
    expect(hub.requests.some((r) => r.method === "POST" && r.path.startsWith("/together/"))).toBe(true);
    expect(authorizations().every((value) => value === undefined)).toBe(true);
  });
});

describe("a blank token is no token", () => {
  it("a blank HF_TOKEN is as unset: HUGGING_FACE_HUB_TOKEN is read next", async () => {
    vi.stubEnv("HF_TOKEN", "  ");
    vi.stubEnv("HUGGING_FACE_HUB_TOKEN", "hf_second_name");
    await new InferenceClient().chatCompletion({ model: MODEL, messages });
    expect(authorizations()).toEqual(["Bearer hf_second_name"]);
  });

  it('"" keeps HF_TOKEN away from the server, as documented (white space too)', async () => {
    vi.stubEnv("HF_TOKEN", "hf_not_for_this_server");
    await new InferenceClient("").chatCompletion({ model: MODEL, messages, provider: "together" });
    await chatCompletion({ accessToken: "  ", model: MODEL, messages, provider: "together" });
    expect(authorizations()).toEqual([undefined, undefined]);
  });
});

describe("a server that needs a token and got none", () => {
  const ROUTER = "https://router.huggingface.co";
  // What the router answers a request without a token.
  const refusing = () => recordingFetch(() => json({ error: "Invalid username or password." }, 401));

  it("says so in one message naming HF_TOKEN, for the client, a call and no token at all", async () => {
    for (const token of ["", " ", undefined]) {
      const rec = refusing();
      const client = new InferenceClient(token, { routerUrl: ROUTER, fetch: rec.fetch, logger: quiet });
      const error = await client
        .chatCompletion({ model: MODEL, messages, provider: "together" })
        .catch((e: unknown) => e);
      expect(error, JSON.stringify(token)).toBeInstanceOf(AuthenticationError);
      const message = (error as Error).message;
      expect(message).toMatch(/^Invalid username or password\. No token was sent: set HF_TOKEN /);
      expect(message.match(/HF_TOKEN/g)).toHaveLength(1);
      expect(rec.seen.map((r) => r.headers.authorization)).toEqual([undefined]);
    }
  });

  it("a token that was sent and refused gets no such hint", async () => {
    const rec = refusing();
    const client = new InferenceClient("hf_refused_token", { routerUrl: ROUTER, fetch: rec.fetch });
    const error = await client.chatCompletion({ model: MODEL, messages }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(AuthenticationError);
    expect((error as Error).message).not.toContain("HF_TOKEN");
    const own = new InferenceClient(undefined, {
      routerUrl: ROUTER,
      fetch: rec.fetch,
      headers: { Authorization: "Bearer hf_own" },
    });
    expect(
      ((await own.chatCompletion({ model: MODEL, messages }).catch((e: unknown) => e)) as Error).message,
    ).not.toContain("HF_TOKEN");
  });
});
