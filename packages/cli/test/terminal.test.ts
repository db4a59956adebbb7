import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { PassThrough } from "node:stream";
import { afterAll, beforeAll, expect, it } from "vitest";
import { Progress, warnings } from "../src/progress";
import { printable } from "../src/safeText";
import { hfkit } from "./run";

// A hostile server's chunks: OSC 52 (clipboard), CSI erase, 8-bit CSI and OSC, a window title, a bare \r,
// and an ESC [ split across two chunks.
const CONTENT = [
  "Hi\t\u001b]52;c;ZXZpbA==\u0007",
  "\u001b[2J",
  "\u009b31mred\n",
  "\u001b]0;title\u001b\\",
  "\u001b",
  "[2K",
  "x\ry\r\n",
  "\u009d0;t\u0007.",
];
const REASONING = "think \u001b]52;c;ZXZpbA==\u0007 \u009b2J";
const MODEL_ECHO = "evil\u001b[31m\u009b";
const ERROR = "bad \u001b[31m thing \u009b2J\u0007\rover";

/** The escaped text: what the CLI must print for CONTENT. */
const SHOWN = [
  "Hi\t\\u001b]52;c;ZXZpbA==\\u0007",
  "\\u001b[2J",
  "\\u009b31mred\n",
  "\\u001b]0;title\\u001b\\",
  "\\u001b",
  "[2K",
  "x\\u000dy\r\n",
  "\\u009d0;t\\u0007.",
].join("");

/** Any control character but \n, \t and \r\n, or the bytes ESC / 8-bit CSI / OSC / BEL. */
function controls(text: string): string[] {
  return [...text.replaceAll("\r\n", "\n")].filter((c) => /\p{Cc}/u.test(c) && c !== "\n" && c !== "\t");
}

let server: Server;
let base: string;
beforeAll(async () => {
  server = createServer((req, res) => void answer(req, res));
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => new Promise((resolve) => server.close(resolve)));

/** Model "org/error": a 400 quoting escapes; "org/model": the answer above, streamed or whole. */
async function answer(req: IncomingMessage, res: ServerResponse): Promise<void> {
  let body = "";
  for await (const chunk of req) body += String(chunk);
  const { stream } = JSON.parse(body) as { stream?: boolean };
  if (req.url?.includes("org/error")) {
    res.writeHead(400, { "content-type": "application/json" }).end(JSON.stringify({ error: ERROR }));
  } else if (!stream) {
    const message = { role: "assistant", content: CONTENT.join(""), reasoning_content: REASONING };
    res.writeHead(200, { "content-type": "application/json" });
    const choices = [{ index: 0, message, finish_reason: "stop" }];
    res.end(JSON.stringify({ id: "x", object: "chat.completion", created: 1, model: MODEL_ECHO, choices }));
  } else {
    res.writeHead(200, { "content-type": "text/event-stream" });
    const deltas = [{ role: "assistant", reasoning_content: REASONING }, ...CONTENT.map((content) => ({ content }))];
    for (const delta of deltas) res.write(event({ index: 0, delta }));
    res.end(`${event({ index: 0, delta: {}, finish_reason: "stop" })}data: [DONE]\n\n`);
  }
}

function event(choice: object): string {
  const chunk = { id: "x", object: "chat.completion.chunk", created: 1, model: MODEL_ECHO, choices: [choice] };
  return `data: ${JSON.stringify(chunk)}\n\n`;
}

function chat(args: string[], options?: Parameters<typeof hfkit>[1]) {
  return hfkit(["chat", "--base-url", base, ...args], options);
}

it("streamed model text reaches the terminal escaped, split sequences too; \\n, \\t and \\r\\n stay", async () => {
  const run = await chat(["-m", "org/model", "hi"]);
  expect(run).toMatchObject({ code: 0, stderr: "" });
  expect(run.stdout).toBe(`${SHOWN}\n`);
  expect(controls(run.stdout)).toEqual([]);
});

it("the whole answer (--no-stream) and each turn of a conversation are escaped the same way", async () => {
  const whole = await chat(["-m", "org/model", "--no-stream", "hi"]);
  expect(whole.stdout).toBe(`${SHOWN}\n`);
  const turns = await chat(["-m", "org/model", "-i"], { stdin: "hi\n" });
  expect(turns.stdout).toContain(SHOWN);
  expect(controls(turns.stdout)).toEqual([]);
});

it("--json: reasoning, content and the echoed model id hold no raw control character and parse back as sent", async () => {
  for (const flags of [[], ["--no-stream"]]) {
    const run = await chat(["-m", "org/model", "--json", ...flags, "hi"]);
    expect(run.code, flags.join()).toBe(0);
    expect(controls(run.stdout), flags.join()).toEqual([]);
    const lines = run.stdout
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line) as Record<string, any>);
    expect(lines.every((line) => line.model === MODEL_ECHO)).toBe(true);
    const choices = lines.map((line) => line.choices[0]);
    const text = choices.map((c) => c.delta?.content ?? c.message?.content ?? "").join("");
    const reasoning = choices.map((c) => c.delta?.reasoning ?? c.message?.reasoning ?? c.message?.reasoning_content);
    expect(reasoning.filter(Boolean).join("")).toBe(REASONING);
    expect(text).toBe(CONTENT.join(""));
  }
});

it("an error quoting the server's body is escaped, with --verbose too; the CLI's own colour still works", async () => {
  const run = await chat(["-m", "org/error", "--verbose", "hi"], { env: { FORCE_COLOR: "1" } });
  expect(run.code).toBe(1);
  expect(run.stderr.startsWith("\u001b[1m\u001b[31mhfkit:\u001b[39m\u001b[22m ")).toBe(true);
  expect(run.stderr).toContain("bad \\u001b[31m thing \\u009b2J\\u0007\\u000dover");
  const own = ["\u001b[1m", "\u001b[31m", "\u001b[39m", "\u001b[22m", "\u001b[2m"];
  expect(controls(own.reduce((text, code) => text.replaceAll(code, ""), run.stderr))).toEqual([]);
});

it("printable: each control character on its own, so a chunk boundary inside a sequence changes nothing", () => {
  const text = CONTENT.join("");
  for (let cut = 0; cut <= text.length; cut++) {
    const parts = printable(text.slice(0, cut)) + printable(text.slice(cut));
    expect(controls(parts), String(cut)).toEqual([]);
  }
  expect(printable("a\u0000b\u007fc\u0085d")).toBe("a\\u0000b\\u007fc\\u0085d");
});

function sink(isTTY: boolean) {
  const stream = Object.assign(new PassThrough(), { isTTY });
  let text = "";
  stream.setEncoding("utf8").on("data", (c: string) => (text += c));
  return { stream, text: () => text };
}

it("warnings and the progress line are escaped; the spinner keeps its own \\r and erase", () => {
  const out = sink(false);
  warnings(out.stream).warn("Model m is in staging mode for provider \u001b]0;pwned\u0007.");
  new Progress(out.stream, "org/\u001b[2Jm").onRetry({ attempt: 2, delayMs: 100, status: 503, reason: "loading" });
  expect(out.text()).toBe(
    "Model m is in staging mode for provider \\u001b]0;pwned\\u0007.\nModel org/\\u001b[2Jm is loading...\n",
  );
  const tty = sink(true);
  const progress = new Progress(tty.stream, "org/\u009b2Jm");
  progress.onRetry({ attempt: 2, delayMs: 100, status: 503, reason: "loading" });
  progress.clear();
  expect(controls(tty.text().replaceAll("\r\u001b[K", ""))).toEqual([]);
});

it("hfkit snippet: what the Hub answered is escaped in the error line", async () => {
  const model = JSON.stringify({ id: "org/x", pipeline_tag: "\u001b]0;t\u0007\u009b2J" });
  const hub = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end(model));
  await new Promise<void>((resolve) => hub.listen(0, "127.0.0.1", resolve));
  try {
    const endpoint = `http://127.0.0.1:${(hub.address() as { port: number }).port}`;
    const run = await hfkit(["snippet", "org/x"], { env: { HF_ENDPOINT: endpoint } });
    expect(run.code).toBe(1);
    expect(run.stderr).toContain("(pipeline_tag: \\u001b]0;t\\u0007\\u009b2J)");
    expect(controls(run.stderr)).toEqual([]);
  } finally {
    await new Promise((resolve) => hub.close(resolve));
  }
});
