import { describe, expect, it } from "vitest";
import { getSnippets, isChatModel, type ModelData, modelKind, type Snippet, type SnippetOptions } from "../src";
import { CHAT_MODEL, GENERATION_MODEL, GOLDEN_CASES, run } from "./helpers";

const pick = (snippets: Snippet[], language: string, client: string): string => {
  const found = snippets.find((s) => s.language === language && s.client === client);
  if (!found) throw new Error(`no ${language}/${client} snippet`);
  return found.content;
};

describe("which models are chat models", () => {
  const model = (pipeline_tag: string | undefined, extra: Partial<ModelData> = {}): ModelData => ({
    id: "a/b",
    pipeline_tag,
    ...extra,
  });
  it.each([
    [
      "text-generation with a chat template",
      model("text-generation", { config: { tokenizer_config: { chat_template: "{{x}}" } } }),
      true,
    ],
    [
      "text-generation with named chat templates",
      model("text-generation", {
        config: { tokenizer_config: { chat_template: [{ name: "default", template: "{{x}}" }] } },
      }),
      true,
    ],
    ["text-generation tagged conversational", model("text-generation", { tags: ["conversational"] }), true],
    ["image-text-to-text tagged conversational", model("image-text-to-text", { tags: ["conversational"] }), true],
    [
      "image-text-to-text with a chat template",
      model("image-text-to-text", { config: { tokenizer_config: { chat_template: "{{x}}" } } }),
      true,
    ],
    ["text-generation without either", model("text-generation", { tags: ["transformers"] }), false],
    [
      "text-generation with an empty template list",
      model("text-generation", { config: { tokenizer_config: { chat_template: [] } } }),
      false,
    ],
    ["text-generation with null config", model("text-generation", { config: null, tags: null }), false],
    ["fill-mask tagged conversational", model("fill-mask", { tags: ["conversational"] }), false],
    ["no pipeline tag, tagged conversational", model(undefined, { tags: ["conversational"] }), false],
  ])("%s: %s", (_name, data, chat) => {
    expect(isChatModel(data)).toBe(chat);
    expect(modelKind(data) === "chat").toBe(chat);
  });

  it("text-generation and text2text-generation models without chat get text generation; others nothing", () => {
    expect(modelKind(GENERATION_MODEL)).toBe("text-generation");
    expect(modelKind({ id: "t5", pipeline_tag: "text2text-generation" })).toBe("text-generation");
    expect(modelKind({ id: "vlm", pipeline_tag: "image-text-to-text" })).toBeUndefined();
    expect(getSnippets({ id: "sd", pipeline_tag: "text-to-image", tags: ["conversational"] })).toEqual([]);
  });
});

describe("getSnippets", () => {
  it("gives a chat model five snippets and a text-generation model three, in a fixed order", () => {
    const ids = (model: ModelData) => getSnippets(model).map((s) => `${s.language}/${s.client}`);
    expect(ids(CHAT_MODEL)).toEqual(["js/hfkit", "js/openai", "python/huggingface_hub", "python/openai", "sh/curl"]);
    expect(ids(GENERATION_MODEL)).toEqual(["js/hfkit", "python/huggingface_hub", "sh/curl"]);
  });

  it("asks by default one user message, no system message, max_tokens 500", () => {
    const curl = pick(getSnippets(CHAT_MODEL), "sh", "curl");
    const body = JSON.parse(curl.slice(curl.indexOf("-d '") + 4, curl.lastIndexOf("'")));
    expect(body).toEqual({
      model: "acme/chat",
      messages: [{ role: "user", content: "What is the capital of France?" }],
      max_tokens: 500,
      stream: false,
    });
  });

  it("streams with chatCompletionStream / stream=True, and doesn't with streaming: false; cURL never streams", () => {
    const streaming = getSnippets(CHAT_MODEL);
    expect(pick(streaming, "js", "hfkit")).toContain("client.chatCompletionStream({");
    expect(pick(streaming, "js", "hfkit")).toContain('process.stdout.write(chunk.choices[0]?.delta?.content ?? "");');
    expect(pick(streaming, "js", "openai")).toContain("  stream: true,\n");
    expect(pick(streaming, "python", "huggingface_hub")).toContain("client.chat_completion(");
    expect(pick(streaming, "python", "huggingface_hub")).toContain("    stream=True,\n");
    expect(pick(streaming, "python", "openai")).toContain("    stream=True,\n");
    const plain = getSnippets(CHAT_MODEL, { streaming: false });
    expect(pick(plain, "js", "hfkit")).toContain("await client.chatCompletion({");
    for (const s of plain.filter((s) => s.language !== "sh")) expect(s.content).not.toMatch(/stream/i);
    for (const s of [...streaming, ...plain].filter((s) => s.language === "sh"))
      expect(s.content).toContain('"stream": false');
  });

  it("puts the placeholder hf_*** in the code, or the token passed", () => {
    for (const s of getSnippets(CHAT_MODEL)) expect(s.content).toContain("hf_***");
    for (const s of getSnippets(CHAT_MODEL, { accessToken: "hf_abc" })) {
      expect(s.content).toContain("hf_abc");
      expect(s.content).not.toContain("hf_***");
    }
  });

  it("quotes a token and the URL for the shell: curl receives them unchanged", async () => {
    const token = `hf_it's"$x`;
    const curl = pick(getSnippets(CHAT_MODEL, { accessToken: token, baseUrl: "http://h:1/a b" }), "sh", "curl");
    const result = await run("sh", ["-c", `curl() { printf '%s\\n' "$@"; }\n${curl}`]);
    expect(result.stdout.split("\n").slice(0, 3)).toEqual([
      "http://h:1/a b/models/acme/chat/v1/chat/completions",
      "-H",
      `Authorization: Bearer ${token}`,
    ]);
  });

  it.each<[string, SnippetOptions, Record<string, string>]>([
    [
      "the router by default",
      {},
      {
        hfkit: 'new InferenceClient("hf_***");',
        openaiJs: 'baseURL: "https://router.huggingface.co/v1",',
        hub: 'client = InferenceClient(api_key="hf_***")',
        openaiPy: 'OpenAI(base_url="https://router.huggingface.co/v1",',
        curl: "curl https://router.huggingface.co/v1/chat/completions \\",
      },
    ],
    [
      "{baseUrl}/models/{id}/v1 for a base (trailing slash dropped)",
      { baseUrl: "http://127.0.0.1:8080/" },
      {
        hfkit: 'baseUrl: "http://127.0.0.1:8080",',
        openaiJs: 'baseURL: "http://127.0.0.1:8080/models/acme/chat/v1",',
        hub: 'base_url="http://127.0.0.1:8080/models/acme/chat",',
        openaiPy: 'base_url="http://127.0.0.1:8080/models/acme/chat/v1",',
        curl: "curl http://127.0.0.1:8080/models/acme/chat/v1/chat/completions \\",
      },
    ],
    [
      "{endpointUrl}/v1 for an endpoint, which wins over a base",
      { endpointUrl: "https://e.cloud", baseUrl: "http://ignored" },
      {
        hfkit: 'endpointUrl: "https://e.cloud",',
        openaiJs: 'baseURL: "https://e.cloud/v1",',
        hub: 'base_url="https://e.cloud",',
        openaiPy: 'base_url="https://e.cloud/v1",',
        curl: "curl https://e.cloud/v1/chat/completions \\",
      },
    ],
    [
      "an endpoint given with /v1 gets no second /v1",
      { endpointUrl: "https://e.cloud/v1/" },
      {
        openaiJs: 'baseURL: "https://e.cloud/v1",',
        hub: 'base_url="https://e.cloud",',
        curl: "curl https://e.cloud/v1/chat/completions \\",
      },
    ],
    [
      "an endpoint given with /v1/chat/completions",
      { endpointUrl: "https://e.cloud/v1/chat/completions" },
      {
        openaiPy: 'base_url="https://e.cloud/v1",',
        curl: "curl https://e.cloud/v1/chat/completions \\",
      },
    ],
  ])("chat URLs: %s", (_name, options, expected) => {
    const snippets = getSnippets(CHAT_MODEL, options);
    const contents: Record<string, string> = {
      hfkit: pick(snippets, "js", "hfkit"),
      openaiJs: pick(snippets, "js", "openai"),
      hub: pick(snippets, "python", "huggingface_hub"),
      openaiPy: pick(snippets, "python", "openai"),
      curl: pick(snippets, "sh", "curl"),
    };
    for (const [client, line] of Object.entries(expected)) expect(contents[client], client).toContain(line);
  });

  it.each<[string, SnippetOptions, string, string | undefined]>([
    [
      "hf-inference by default",
      {},
      "https://router.huggingface.co/hf-inference/models/acme/gpt2",
      'provider="hf-inference"',
    ],
    ["a base", { baseUrl: "http://b:1" }, "http://b:1/models/acme/gpt2", 'base_url="http://b:1/models/acme/gpt2"'],
    ["an endpoint's root", { endpointUrl: "https://e.cloud/v1" }, "https://e.cloud", 'base_url="https://e.cloud"'],
  ])("text-generation URLs: %s", (_name, options, url, hubArgument) => {
    const snippets = getSnippets(GENERATION_MODEL, options);
    expect(pick(snippets, "sh", "curl")).toContain(`curl ${url} \\\n`);
    expect(pick(snippets, "python", "huggingface_hub")).toContain(hubArgument);
    // With base_url the URL is the model; a `model=` argument would send the call elsewhere.
    expect(pick(snippets, "python", "huggingface_hub").includes('model="acme/gpt2"')).toBe(
      options.baseUrl === undefined && options.endpointUrl === undefined,
    );
  });

  it("text generation sends the messages' text as inputs, max_new_tokens and temperature as parameters", () => {
    const messages = [
      {
        role: "user",
        content: [
          { type: "text" as const, text: "Once" },
          { type: "image_url" as const, image_url: { url: "x" } },
          { type: "text" as const, text: "upon" },
        ],
      },
    ];
    const curl = pick(getSnippets(GENERATION_MODEL, { messages, max_tokens: 20, temperature: 0 }), "sh", "curl");
    expect(JSON.parse(curl.slice(curl.indexOf("-d '") + 4, curl.lastIndexOf("'")))).toEqual({
      inputs: "Once\nupon",
      parameters: { max_new_tokens: 20, temperature: 0 },
    });
  });

  it.each([
    [{ max_tokens: 0 }, RangeError, "`max_tokens` must be an integer > 0 (got 0)"],
    [{ max_tokens: 1.5 }, RangeError, "`max_tokens` must be an integer > 0 (got 1.5)"],
    [{ temperature: -1 }, RangeError, "`temperature` must be a number >= 0 (got -1)"],
    [{ temperature: Number.NaN }, RangeError, "`temperature` must be a number >= 0 (got NaN)"],
    [{ messages: [] }, TypeError, "`messages` must be a non-empty array"],
  ])("rejects %j", (options, type, message) => {
    expect(() => getSnippets(CHAT_MODEL, options as SnippetOptions)).toThrow(type);
    expect(() => getSnippets(CHAT_MODEL, options as SnippetOptions)).toThrow(message);
  });

  it("rejects model data without an id", () => {
    expect(() => getSnippets({ id: "", pipeline_tag: "text-generation" })).toThrow(
      '`model.id` must be a model id such as "org/name"',
    );
    expect(() => getSnippets(undefined as unknown as ModelData)).toThrow(TypeError);
  });
});

describe("each snippet imports or installs only what it uses", () => {
  const all = Object.values(GOLDEN_CASES).flatMap(({ model, options }) => getSnippets(model, options));

  it.each(all.filter((s) => s.language === "js").map((s, i) => [i, s.client, s.content]))(
    "js #%i (%s)",
    (_i, _client, content) => {
      const imports = [...content.matchAll(/^import (.+) from "(.+)";$/gm)];
      expect(content.split("\n")[0]).toBe(`// npm i ${imports.map((m) => m[2]).join(" ")}`);
      for (const [, names = ""] of imports) {
        for (const name of names
          .replace(/[{}]/g, "")
          .split(",")
          .map((n) => n.trim())) {
          expect(content.split(name).length - 1, name).toBeGreaterThan(1);
        }
      }
    },
  );

  it.each(all.filter((s) => s.language === "python").map((s, i) => [i, s.client, s.content]))(
    "python #%i (%s)",
    (_i, _client, content) => {
      const imports = [...content.matchAll(/^from (\S+) import (.+)$/gm)];
      expect(imports).toHaveLength(1);
      expect(content.split("\n")[0]).toBe(`# pip install ${imports[0]?.[1]}`);
      const name = imports[0]?.[2] ?? "";
      expect(content.split(name).length - 1).toBeGreaterThan(1);
      expect(content).not.toMatch(/^import /m);
    },
  );

  it("cURL needs nothing installed", () => {
    for (const s of all.filter((s) => s.language === "sh")) expect(s.content).toMatch(/^curl /);
  });
});
