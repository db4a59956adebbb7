import { readFile, rm, writeFile } from "node:fs/promises";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { getSnippets, type ModelData, runSnippetCommand, type SnippetCommandIO } from "../src";

const LLAMA: ModelData = {
  id: "meta-llama/Llama-3.1-8B-Instruct",
  pipeline_tag: "text-generation",
  tags: ["conversational"],
  config: { tokenizer_config: { chat_template: "{{ messages }}" } },
};

interface Harness {
  io: SnippetCommandIO;
  out: () => string;
  err: () => string;
  fetched: Array<{ url: string; headers: Record<string, string> }>;
}

/** An io whose Hub answers `answer` (a status and a body, or a thrown error). */
function harness(
  options: {
    env?: Record<string, string>;
    answer?: { status: number; body: unknown } | Error;
    files?: Record<string, string>;
  } = {},
): Harness {
  let out = "";
  let err = "";
  const fetched: Harness["fetched"] = [];
  const answer = options.answer ?? { status: 200, body: LLAMA };
  const io: SnippetCommandIO = {
    stdout: { write: (text) => (out += text) },
    stderr: { write: (text) => (err += text) },
    env: options.env ?? {},
    readFile: async (path) => {
      const text = options.files?.[path];
      if (text === undefined) throw new Error(`ENOENT: no such file or directory, open '${path}'`);
      return text;
    },
    fetch: async (url, init) => {
      fetched.push({ url, headers: init?.headers ?? {} });
      if (answer instanceof Error) throw answer;
      return { ok: answer.status < 300, status: answer.status, json: async () => answer.body };
    },
  };
  return { io, out: () => out, err: () => err, fetched };
}

const snippet = (model: ModelData, client: string, options = {}) =>
  getSnippets(model, options).find((s) => s.client === client && (client !== "openai" || s.language === "js"))?.content;

describe("runSnippetCommand: model data from the Hub API", () => {
  it("fetches GET https://huggingface.co/api/models/{id} and prints the one snippet asked for", async () => {
    const h = harness();
    expect(await runSnippetCommand([LLAMA.id, "--lang", "js", "--client", "hfkit"], h.io)).toBe(0);
    expect(h.fetched.map((f) => f.url)).toEqual(["https://huggingface.co/api/models/meta-llama/Llama-3.1-8B-Instruct"]);
    expect(h.out()).toBe(snippet(LLAMA, "hfkit"));
    expect(h.err()).toBe("");
  });

  it("prints every snippet under a header without filters", async () => {
    const h = harness();
    expect(await runSnippetCommand([LLAMA.id], h.io)).toBe(0);
    const headers = h
      .out()
      .split("\n")
      .filter((line) => line.startsWith("==> "));
    expect(headers).toEqual([
      "==> js/hfkit <==",
      "==> js/openai <==",
      "==> python/huggingface_hub <==",
      "==> python/openai <==",
      "==> sh/curl <==",
    ]);
    for (const s of getSnippets(LLAMA)) expect(h.out()).toContain(`==> ${s.language}/${s.client} <==\n${s.content}`);
  });

  it("--lang python gives both Python snippets; --client openai both openai ones", async () => {
    const python = harness();
    await runSnippetCommand([LLAMA.id, "--lang=python"], python.io);
    expect(python.out()).toMatch(/^==> python\/huggingface_hub <==\n[^]*\n==> python\/openai <==\n/);
    const openai = harness();
    await runSnippetCommand([LLAMA.id, "--client", "openai"], openai.io);
    expect(openai.out()).toContain("==> js/openai <==");
    expect(openai.out()).toContain("==> python/openai <==");
    expect(openai.out()).not.toContain("hfkit");
  });

  it("sends HF_TOKEN to the Hub API but never prints it", async () => {
    const h = harness({ env: { HF_TOKEN: "hf_secretSecretSecret" } });
    expect(await runSnippetCommand([LLAMA.id], h.io)).toBe(0);
    expect(h.fetched[0]?.headers).toEqual({ authorization: "Bearer hf_secretSecretSecret" });
    expect(h.out()).not.toContain("hf_secret");
    expect(h.out()).toContain('"hf_***"');
    expect(h.out()).toContain("Bearer hf_***");
  });

  it("HF_ENDPOINT replaces the Hub's URL", async () => {
    const h = harness({ env: { HF_ENDPOINT: "http://127.0.0.1:5564/" } });
    await runSnippetCommand(["gpt2", "--client", "curl"], h.io);
    expect(h.fetched[0]?.url).toBe("http://127.0.0.1:5564/api/models/gpt2");
  });

  it("--no-stream, --base-url and --endpoint reach the snippets", async () => {
    const noStream = harness();
    await runSnippetCommand([LLAMA.id, "--client", "hfkit", "--no-stream"], noStream.io);
    expect(noStream.out()).toBe(snippet(LLAMA, "hfkit", { streaming: false }));
    const base = harness();
    await runSnippetCommand([LLAMA.id, "--client", "curl", "--base-url", "http://127.0.0.1:8080"], base.io);
    expect(base.out()).toContain(
      "curl http://127.0.0.1:8080/models/meta-llama/Llama-3.1-8B-Instruct/v1/chat/completions \\\n",
    );
    const endpoint = harness();
    await runSnippetCommand(
      [LLAMA.id, "--client", "curl", "--endpoint=https://x.endpoints.huggingface.cloud"],
      endpoint.io,
    );
    expect(endpoint.out()).toContain("curl https://x.endpoints.huggingface.cloud/v1/chat/completions \\\n");
  });

  it("a model without a chat template gets the text-generation snippets", async () => {
    const h = harness({
      answer: { status: 200, body: { id: "openai-community/gpt2", pipeline_tag: "text-generation", tags: [] } },
    });
    expect(await runSnippetCommand(["openai-community/gpt2", "--lang", "js"], h.io)).toBe(0);
    expect(h.out()).toContain("client.textGeneration(");
  });
});

describe("runSnippetCommand: --model-file", () => {
  it("reads the model data from the file, and never calls the Hub", async () => {
    const h = harness({ files: { "llama.json": JSON.stringify(LLAMA) } });
    expect(await runSnippetCommand(["--model-file", "llama.json", "--lang", "sh"], h.io)).toBe(0);
    expect(h.fetched).toEqual([]);
    expect(h.out()).toBe(snippet(LLAMA, "curl"));
  });

  it("MODEL_ID names a file's model that has no id", async () => {
    const { id: _id, ...withoutId } = LLAMA;
    const h = harness({ files: { "m.json": JSON.stringify(withoutId) } });
    expect(await runSnippetCommand(["acme/chat", "--model-file", "m.json", "--client", "curl"], h.io)).toBe(0);
    expect(h.out()).toContain('"model": "acme/chat"');
    const noId = harness({ files: { "m.json": JSON.stringify(withoutId) } });
    expect(await runSnippetCommand(["--model-file", "m.json"], noId.io)).toBe(1);
    expect(noId.err()).toBe('hfkit snippet: m.json has no "id": give MODEL_ID too\n');
  });

  it("works with a real file read by node:fs", async () => {
    const file = join(tmpdir(), `hfkit-snippets-model-${process.pid}.json`);
    await writeFile(file, JSON.stringify({ id: "acme/gpt2", pipeline_tag: "text-generation" }));
    try {
      const h = harness();
      h.io.readFile = (path) => readFile(path, "utf8");
      expect(await runSnippetCommand(["--model-file", file, "--lang", "python"], h.io)).toBe(0);
      expect(h.out()).toContain("client.text_generation(");
    } finally {
      await rm(file, { force: true });
    }
  });
});

describe("runSnippetCommand: bad usage is one line on stderr and exit code 2", () => {
  it.each([
    [[], "MODEL_ID or --model-file FILE is required"],
    [["a/b", "c/d"], "one MODEL_ID expected, got 2: a/b c/d"],
    [["a/b", "--lang", "ruby"], '--lang must be one of js, python, sh (got "ruby")'],
    [["a/b", "--client", "requests"], '--client must be one of hfkit, openai, huggingface_hub, curl (got "requests")'],
    [["a/b", "--lang"], "--lang needs a value"],
    [["a/b", "--lang", "--no-stream"], "--lang needs a value"],
    [["a/b", "--stream"], 'unknown option "--stream"'],
    [["a/b", "-l", "js"], 'unknown option "-l"'],
    [["not a model"], '"not a model" is not a model id such as "org/name"'],
    [["a/b/c"], '"a/b/c" is not a model id such as "org/name"'],
    [["a/b", "--base-url", "localhost:8080"], '--base-url must be an http(s) URL (got "localhost:8080")'],
    [["a/b", "--base-url", "http://a", "--endpoint", "http://b"], "--base-url and --endpoint cannot be used together"],
  ])("%j", async (argv, message) => {
    const h = harness();
    expect(await runSnippetCommand(argv, h.io)).toBe(2);
    expect(h.err()).toBe(`hfkit snippet: ${message}\n`);
    expect(h.out()).toBe("");
    expect(h.fetched).toEqual([]);
  });

  it("--help prints the usage and exits 0", async () => {
    const h = harness();
    expect(await runSnippetCommand(["--help"], h.io)).toBe(0);
    expect(h.out()).toMatch(/^usage: hfkit snippet MODEL_ID \[--lang js\|python\|sh\] .*\n$/);
  });
});

describe("runSnippetCommand: failures are one line on stderr and exit code 1", () => {
  it.each([
    [
      "the Hub's 404",
      { answer: { status: 404, body: { error: "Repository not found" } } },
      ["acme/missing"],
      "model acme/missing not found on the Hub (HTTP 404; a private or gated model needs HF_TOKEN)",
    ],
    [
      "the Hub's 500",
      { answer: { status: 500, body: {} } },
      ["acme/x"],
      "the Hub answered HTTP 500 for https://huggingface.co/api/models/acme/x",
    ],
    [
      "no network",
      { answer: new TypeError("fetch failed") },
      ["acme/x"],
      "cannot reach https://huggingface.co/api/models/acme/x: fetch failed",
    ],
    [
      "a model with no snippets",
      { answer: { status: 200, body: { id: "acme/bert", pipeline_tag: "fill-mask" } } },
      ["acme/bert"],
      "no snippets for acme/bert (pipeline_tag: fill-mask): only text-generation and chat models have them",
    ],
    [
      "a client the model has no snippet for",
      { answer: { status: 200, body: { id: "acme/gpt2", pipeline_tag: "text-generation" } } },
      ["acme/gpt2", "--client", "openai"],
      "no openai snippet for acme/gpt2 (available: js/hfkit, python/huggingface_hub, sh/curl)",
    ],
    [
      "a missing file",
      {},
      ["--model-file", "nope.json"],
      "cannot read nope.json: ENOENT: no such file or directory, open 'nope.json'",
    ],
    [
      "a file that is not JSON",
      { files: { "m.json": "{id:" } },
      ["--model-file", "m.json"],
      /^m\.json is not valid JSON: /,
    ],
    [
      "a file holding an array",
      { files: { "m.json": "[]" } },
      ["--model-file", "m.json"],
      "m.json does not hold a model's data (a JSON object)",
    ],
  ] as const)("%s", async (_name, setup, argv, message) => {
    const h = harness(setup as Parameters<typeof harness>[0]);
    expect(await runSnippetCommand([...argv], h.io)).toBe(1);
    if (typeof message === "string") expect(h.err()).toBe(`hfkit snippet: ${message}\n`);
    else expect(h.err()).toMatch(new RegExp(`^hfkit snippet: ${message.source.slice(1)}[^\\n]*\\n$`));
    expect(h.out()).toBe("");
  });
});
