import { describe, expect, it } from "vitest";
import * as sdk from "../../dist/index.js";
import { CATALOG, NOT_COVERED, title } from "./catalog";
import { ALL_EXCHANGES, type Exchange, requestJson } from "./fixtures";
import { drain, expectNoToken } from "./run";
import { TOKEN } from "./plan";

/**
 * The recorded exchanges the suite does not replay, because nothing in the SDK would make their
 * request: each reason the catalogue gives is checked here against the SDK itself.
 */

const notCovered = (reason: string): Exchange[] =>
  CATALOG.filter((e) => e.kind === "not-covered" && e.reason === reason).map((e) => e.ex);

/** A fetch that records what it is asked for and answers `answer` (or fails the test when none is given). */
function spyFetch(answer?: { body: string; contentType: string }): { fetch: sdk.FetchLike; urls: string[] } {
  const urls: string[] = [];
  return {
    urls,
    fetch: async (input) => {
      urls.push(input);
      if (!answer) throw new Error(`no request was expected, got one to ${input}`);
      return new Response(answer.body, { status: 200, headers: { "content-type": answer.contentType } });
    },
  };
}

describe("OpenAI text completions (/v1/completions)", { timeout: 20_000 }, () => {
  const COMPLETIONS = notCovered(NOT_COVERED.completions);

  it("are recorded on a provider, for `prompt`", () => {
    expect(COMPLETIONS.length).toBeGreaterThan(0);
    for (const ex of COMPLETIONS) {
      expect(new URL(ex.url).pathname, title(ex)).toBe("/v1/completions");
      expect(typeof requestJson(ex)?.prompt, title(ex)).toBe("string");
    }
  });

  it("replay through textGeneration on that provider, with its own key: the recorded route and prompt posted, the recorded text answered", async () => {
    const names = Object.keys(sdk).map((n) => n.toLowerCase());
    expect(names.filter((n) => n.includes("completion") && !n.startsWith("chatcompletion"))).toStrictEqual([]);
    for (const ex of COMPLETIONS) {
      const req = requestJson(ex) ?? {};
      const provider = new URL(ex.url).hostname.split(".").at(-2) as string; // api.together.xyz -> together
      const model = req.model as string;
      const sent: Array<{ url: string; body: Record<string, unknown> | undefined; auth: string | null }> = [];
      const fetch: sdk.FetchLike = async (url, init) => {
        sent.push({
          url,
          body: init?.body ? (JSON.parse(String(init.body)) as Record<string, unknown>) : undefined,
          auth: new Headers(init?.headers).get("authorization"),
        });
        if (url.includes("/api/models/")) {
          return new Response(
            JSON.stringify({
              id: model,
              inferenceProviderMapping: { [provider]: { providerId: model, task: "text-generation", status: "live" } },
            }),
            { headers: { "content-type": "application/json" } },
          );
        }
        return new Response(ex.body, { status: ex.status, headers: { "content-type": "application/json" } });
      };
      const key = "recorded-provider-key";
      const args = {
        model,
        inputs: req.prompt as string,
        provider,
        accessToken: key,
        parameters: { temperature: req.temperature as number, max_tokens: req.max_tokens as number },
      };
      const out = await sdk.textGeneration(args as sdk.TextGenerationArgs, { fetch });
      const recorded = JSON.parse(ex.body) as { choices: { text: string }[] };
      expect(out.generated_text, title(ex)).toBe(recorded.choices[0]?.text);
      // The Hub is asked once per model (then remembered), without the provider's key; the completion goes to the recorded URL.
      const lookup = `https://huggingface.co/api/models/${model}?expand[]=inferenceProviderMapping`;
      expect(
        sent.map((s) => s.url).filter((u) => u !== lookup),
        title(ex),
      ).toStrictEqual([ex.url]);
      for (const s of sent.filter((s) => s.url === lookup)) expect(s.auth, title(ex)).toBeNull();
      const posted = sent.find((s) => s.url === ex.url);
      expect(posted?.auth, title(ex)).toBe(`Bearer ${key}`);
      expect(posted?.body, title(ex)).toMatchObject({
        model,
        prompt: req.prompt,
        max_tokens: req.max_tokens,
        temperature: req.temperature,
      });
      // Streaming text generation on a third-party provider is refused before any request.
      const before = sent.length;
      const streamed = await drain(sdk.textGenerationStream(args as sdk.TextGenerationArgs, { fetch }));
      expect(streamed.error, title(ex)).toBeInstanceOf(sdk.InputError);
      expectNoToken(streamed.error);
      expect(sent.length).toBe(before);
    }
  });
});

describe("Hub API model look-ups", { timeout: 20_000 }, () => {
  const LOOKUPS = notCovered(NOT_COVERED.hubApi);

  it("are each followed, in their cassette, by the inference call they served, which is replayed", () => {
    expect(LOOKUPS.length).toBeGreaterThan(0);
    for (const ex of LOOKUPS) {
      expect(ex.method, title(ex)).toBe("GET");
      const cassette = ex.id.slice(0, ex.id.indexOf("#") + 1);
      const after = ALL_EXCHANGES.filter(
        (other) => other.id.startsWith(cassette) && !new URL(other.url).pathname.startsWith("/api/models/"),
      );
      expect(after.length, title(ex)).toBeGreaterThan(0);
      for (const other of after)
        expect(CATALOG.find((e) => e.ex === other)?.kind, title(other)).not.toBe("not-covered");
    }
  });

  it("are read by a task on a provider: each recorded mapping's providers and tasks, in 4.13's words, one look-up per model", async () => {
    const mappings = LOOKUPS.filter((ex) => ex.url.includes("inferenceProviderMapping") && ex.status === 200);
    expect(mappings.length).toBeGreaterThan(0);
    for (const ex of mappings) {
      const recorded = JSON.parse(ex.body) as {
        id: string;
        inferenceProviderMapping: Record<string, { task: string; status: string }>;
      };
      const model = recorded.id;
      const asked: string[] = [];
      const fetch: sdk.FetchLike = async (url) => {
        asked.push(url);
        if (!url.includes("/api/models/"))
          throw new Error(`no request but the look-up was expected, got one to ${url}`);
        return new Response(ex.body, { status: 200, headers: { "content-type": "application/json" } });
      };
      const hubUrl = `https://hub-${mappings.indexOf(ex)}.example`; // one memory entry per exchange
      const providers = Object.keys(recorded.inferenceProviderMapping);
      expect(providers.length, title(ex)).toBeGreaterThan(0);
      // "auto": no live text-to-image mapping, and the message lists what the Hub maps, read in the Hub's order.
      const auto = await sdk
        .textToImage({ model, provider: "auto", inputs: "a cat", accessToken: TOKEN }, { fetch, hubUrl })
        .catch((e: unknown) => e);
      expect(auto, title(ex)).toBeInstanceOf(sdk.InputError);
      const listed = providers
        .map(
          (p) =>
            `${p} (${recorded.inferenceProviderMapping[p]!.task}, ${recorded.inferenceProviderMapping[p]!.status})`,
        )
        .join(", ");
      expect((auto as Error).message, title(ex)).toContain(
        `No Inference Provider available for model ${model}. (provider "auto", task text-to-image: the Hub maps it to ${listed};`,
      );
      expectNoToken(auto);
      // A provider that has a text-to-image format here, mapped for another task: 4.13's words.
      for (const provider of providers.filter((p) =>
        ["together", "fal-ai", "replicate", "nscale", "wavespeed", "zai-org", "deepinfra"].includes(p),
      )) {
        const entry = recorded.inferenceProviderMapping[provider]!;
        const error = await sdk
          .textToImage(
            { model, provider: provider as "together", inputs: "a cat", accessToken: TOKEN },
            { fetch, hubUrl },
          )
          .catch((e: unknown) => e);
        expect((error as Error).message, `${title(ex)} ${provider}`).toBe(
          `Model ${model} is not supported for task text-to-image and provider ${provider}. Supported task: ${entry.task}.`,
        );
      }
      const unmapped = await sdk
        .textToImage({ model, provider: "wavespeed", inputs: "a cat", accessToken: TOKEN }, { fetch, hubUrl })
        .catch((e: unknown) => e);
      if (!providers.includes("wavespeed"))
        expect((unmapped as Error).message, title(ex)).toMatch(
          new RegExp(
            `^We have not been able to find inference provider information for model ${model.replace(/[.]/g, "\\.")}\\.`,
          ),
        );
      expect(asked, title(ex)).toStrictEqual([`${hubUrl}/api/models/${model}?expand[]=inferenceProviderMapping`]);
    }
  });

  it("are never made by the SDK: a provider is named in the request, not looked up", async () => {
    const lookup = LOOKUPS.find((ex) => ex.url.includes("expand=inferenceProviderMapping")) as Exchange;
    const cassette = lookup.id.slice(0, lookup.id.indexOf("#") + 1);
    const provider = /\[([a-z-]+),/.exec(cassette)?.[1] as string;
    const answer = ALL_EXCHANGES.find(
      (ex) => ex.id.startsWith(cassette) && ex.url.endsWith("/chat/completions"),
    ) as Exchange;
    const model = /\/api\/models\/([^?]+)/.exec(lookup.url)?.[1] as string;
    const spy = spyFetch({ body: answer.body, contentType: "application/json" });
    const client = new sdk.InferenceClient(TOKEN, { fetch: spy.fetch, provider });
    await client.chatCompletion({ model, messages: [{ role: "user", content: "Hi" }] });
    expect(spy.urls).toStrictEqual(["https://router.huggingface.co/v1/chat/completions"]);
  });
});

describe("image-to-text answers (recorded without their binary request body)", { timeout: 20_000 }, () => {
  const IMAGE_TO_TEXT = notCovered(NOT_COVERED.imageToText);

  it("replay through imageToText: the image's bytes posted to the model's hf-inference route, the recorded caption answered", async () => {
    expect(IMAGE_TO_TEXT.length).toBeGreaterThan(0);
    for (const ex of IMAGE_TO_TEXT) {
      expect(ex.requestBody, title(ex)).toBeNull();
      const model = /\/models\/(.+)$/.exec(new URL(ex.url).pathname)?.[1] as string;
      const sent: Array<{ url: string; type: string | null; bytes: number }> = [];
      const fetch: sdk.FetchLike = async (url, init) => {
        const body = init?.body as Blob;
        sent.push({ url, type: new Headers(init?.headers).get("content-type"), bytes: body.size });
        return new Response(ex.body, { status: ex.status, headers: { "content-type": "application/json" } });
      };
      const image = new Blob([new Uint8Array([0x89, 0x50, 0x4e, 0x47])], { type: "image/png" });
      const out = await sdk.imageToText(
        { model, inputs: image, accessToken: TOKEN },
        { provider: "hf-inference", fetch },
      );
      expect(out, title(ex)).toStrictEqual((JSON.parse(ex.body) as unknown[])[0]);
      expect(sent, title(ex)).toStrictEqual([
        { url: `https://router.huggingface.co/hf-inference/models/${model}`, type: "image/png", bytes: 4 },
      ]);
    }
  });

  it("a string is no image: InputError naming inputs, nothing sent", async () => {
    const model = /\/models\/(.+)$/.exec(new URL((IMAGE_TO_TEXT[0] as Exchange).url).pathname)?.[1] as string;
    const spy = spyFetch();
    const args = { model, inputs: "not an image" as unknown as Blob, accessToken: TOKEN };
    const error = await sdk.imageToText(args, { provider: "hf-inference", fetch: spy.fetch }).then(
      () => undefined,
      (e: unknown) => e,
    );
    expect(error).toBeInstanceOf(sdk.InputError);
    expect((error as sdk.InputError).field).toBe("inputs");
    expect(spy.urls).toStrictEqual([]);
  });
});
