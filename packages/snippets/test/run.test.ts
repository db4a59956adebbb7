import { type MockHub, startMockHub } from "@hfkit/mock-hub";
import { afterAll, beforeAll, beforeEach, describe, expect, it, vi } from "vitest";
import { getSnippets, type ModelData, type Snippet, type SnippetOptions } from "../src";
import {
  ANSWER,
  CHAT_MODEL,
  GENERATION_MODEL,
  pyCompile,
  python3,
  run,
  scratchDir,
  useBuiltInference,
} from "./helpers";

// Each test starts processes (node, python3, curl): slow on a busy 2-core machine, not hung.
vi.setConfig({ testTimeout: 30_000, hookTimeout: 30_000 });

// Every snippet, generated for the mock hub, run as a user would: node, curl, python3's compiler.
let hub: MockHub;
const scratch = scratchDir();

beforeAll(async () => {
  for (const tool of ["curl", "python3"]) {
    const found = await run("sh", ["-c", `command -v ${tool}`]);
    if (found.code !== 0)
      throw new Error(`these tests run the snippets with ${tool}: install it (apt-get install -y ${tool})`);
  }
  hub = await startMockHub();
});
afterAll(async () => {
  await hub?.close();
  scratch.remove();
});
beforeEach(() => hub.reset());

const snippetOf = (model: ModelData, options: SnippetOptions, client: string): Snippet => {
  const snippet = getSnippets(model, options).find((s) => s.client === client);
  if (!snippet) throw new Error(`no ${client} snippet`);
  return snippet;
};

async function runJs(snippet: Snippet, name: string) {
  const content = snippet.client === "hfkit" ? useBuiltInference(snippet.content) : snippet.content;
  return run(process.execPath, [scratch.write(`${name}.mjs`, content)]);
}

async function runCurl(snippet: Snippet) {
  const result = await run("sh", ["-c", snippet.content]);
  expect(result.code, result.stderr).toBe(0);
  return JSON.parse(result.stdout) as unknown;
}

/** What the hub received: one inference request, with the placeholder token. */
function onlyRequest() {
  expect(hub.requests).toHaveLength(1);
  const [request] = hub.requests;
  expect(request?.headers.authorization).toBe("Bearer hf_***");
  return request as { path: string; headers: Record<string, string>; body: Record<string, unknown> };
}

const targets: Array<[string, () => SnippetOptions, string, string]> = [
  ["baseUrl", () => ({ baseUrl: hub.url }), "/models/acme/chat/v1/chat/completions", "/models/acme/gpt2"],
  [
    "endpointUrl",
    () => ({ endpointUrl: `${hub.url}/endpoints/acme-ep` }),
    "/endpoints/acme-ep/v1/chat/completions",
    "/endpoints/acme-ep",
  ],
];

describe.each(targets)("chat snippets against the mock hub (%s)", (label, options, chatPath) => {
  it.each(["hfkit", "openai"])("js %s, streaming: prints the answer's text, nothing else", async (client) => {
    const result = await runJs(snippetOf(CHAT_MODEL, options(), client), `chat-${label}-${client}-stream`);
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(ANSWER);
    const request = onlyRequest();
    expect(request.path).toBe(chatPath);
    expect(request.body).toMatchObject({
      stream: true,
      max_tokens: 500,
      messages: [{ role: "user", content: "What is the capital of France?" }],
    });
  });

  it.each(["hfkit", "openai"])("js %s, not streaming: prints the message", async (client) => {
    const result = await runJs(
      snippetOf(CHAT_MODEL, { ...options(), streaming: false }, client),
      `chat-${label}-${client}`,
    );
    expect(result.stderr).toBe("");
    expect(result.stdout).toBe(`${ANSWER}\n`);
    expect(onlyRequest().body).not.toHaveProperty("stream", true);
  });

  it("curl: one JSON answer (stream: false) holding the answer", async () => {
    const answer = await runCurl(snippetOf(CHAT_MODEL, options(), "curl"));
    expect(answer).toMatchObject({
      object: "chat.completion",
      choices: [{ message: { role: "assistant", content: ANSWER } }],
    });
    const request = onlyRequest();
    expect(request.path).toBe(chatPath);
    expect(request.headers["content-type"]).toBe("application/json");
    expect(request.body).toMatchObject({ model: "acme/chat", stream: false, max_tokens: 500 });
  });

  it.each(["huggingface_hub", "openai"])("python %s compiles", async (client) => {
    const snippet = getSnippets(CHAT_MODEL, options()).find((s) => s.language === "python" && s.client === client);
    expect(await pyCompile(scratch.write(`chat-${label}-${client}.py`, snippet?.content ?? ""))).toMatchObject({
      code: 0,
      stderr: "",
    });
  });
});

describe.each(targets)(
  "text-generation snippets against the mock hub (%s)",
  (label, options, _chatPath, generatePath) => {
    // The generate route answers the prompt followed by its continuation, as hf-inference does by default.
    const FULL_TEXT = `What is the capital of France?${ANSWER}`;

    it("js hfkit: textGeneration prints the generated text", async () => {
      const result = await runJs(snippetOf(GENERATION_MODEL, options(), "hfkit"), `generate-${label}`);
      expect(result.stderr).toBe("");
      // hfkit's textGeneration answers the continuation only (return_full_text: false unless asked).
      expect(result.stdout).toBe(`${ANSWER}\n`);
      const request = onlyRequest();
      expect(request.path).toBe(generatePath);
      expect(request.body).toEqual({
        inputs: "What is the capital of France?",
        parameters: { return_full_text: false, max_new_tokens: 500 },
      });
    });

    it("curl: {inputs, parameters} to the generate route", async () => {
      const answer = await runCurl(snippetOf(GENERATION_MODEL, options(), "curl"));
      expect(answer).toEqual([{ generated_text: FULL_TEXT }]);
      const request = onlyRequest();
      expect(request.path).toBe(generatePath);
      expect(request.body).toEqual({ inputs: "What is the capital of France?", parameters: { max_new_tokens: 500 } });
    });

    it("python huggingface_hub compiles", async () => {
      const snippet = snippetOf(GENERATION_MODEL, options(), "huggingface_hub");
      expect(await pyCompile(scratch.write(`generate-${label}.py`, snippet.content))).toMatchObject({
        code: 0,
        stderr: "",
      });
    });
  },
);

describe("what the user typed reaches the server unchanged", () => {
  const messages = [
    { role: "system", content: "Réponds en une phrase." },
    { role: "user", content: `It's "quoted", $HOME, \`cmd\`, \\n and a\nnewline` },
  ];
  const options = () => ({ baseUrl: hub.url, messages, max_tokens: 40, temperature: 0.5 });

  it.each(["hfkit", "openai"])("js %s", async (client) => {
    const result = await runJs(snippetOf(CHAT_MODEL, options(), client), `quoting-${client}`);
    expect(result.stdout).toBe(ANSWER);
    expect(onlyRequest().body).toMatchObject({ messages, max_tokens: 40, temperature: 0.5 });
  });

  it("curl", async () => {
    await runCurl(snippetOf(CHAT_MODEL, options(), "curl"));
    expect(onlyRequest().body).toMatchObject({ messages, max_tokens: 40, temperature: 0.5 });
  });

  it("python: the message literals evaluate to the same strings", async () => {
    for (const snippet of getSnippets(CHAT_MODEL, options()).filter((s) => s.language === "python")) {
      const start = snippet.content.indexOf("messages=") + "messages=".length;
      const literal = snippet.content.slice(start, snippet.content.indexOf("\n    ],", start) + "\n    ]".length);
      const code = "import ast, json, sys; print(json.dumps(ast.literal_eval(sys.stdin.read())))";
      const result = await runWithInput(await python3(), ["-c", code], literal);
      expect(JSON.parse(result)).toEqual(messages);
    }
  });
});

function runWithInput(file: string, args: string[], input: string): Promise<string> {
  const path = scratch.write("input.txt", input);
  return run("sh", ["-c", `"$0" "$@" < "${path}"`, file, ...args]).then((r) => {
    expect(r.code, r.stderr).toBe(0);
    return r.stdout;
  });
}
