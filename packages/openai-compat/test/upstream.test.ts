/**
 * The proxy's own fetch to its target (node:http): what the global fetch did for it still holds over
 * real HTTP on loopback: the connection kept for the next call when a stream's body ends just after
 * [DONE], redirects followed without the caller's token to another origin, compressed answers decoded.
 */
import { once } from "node:events";
import { createServer, type IncomingHttpHeaders, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { gzipSync } from "node:zlib";
import OpenAI from "openai";
import { afterEach, describe, expect, it } from "vitest";
import { startProxy } from "../src/index";
import { messages, within } from "./helpers";

const token = (content: string, finish: string | null = null): string =>
  `data: ${JSON.stringify({ id: "", object: "chat.completion.chunk", created: 1, model: "tgi", choices: [{ index: 0, delta: { role: "assistant", content }, logprobs: null, finish_reason: finish }] })}\n\n`;
const ANSWER = {
  id: "x",
  object: "chat.completion",
  created: 1,
  model: "tgi",
  choices: [{ index: 0, message: { role: "assistant", content: "Paris." }, finish_reason: "stop" }],
};

let cleanup: (() => unknown)[] = [];
afterEach(async () => {
  for (const step of cleanup.reverse()) await step();
  cleanup = [];
});

/** A loopback server; answers its URL. */
async function serve(
  handler: (req: { url: string; headers: IncomingHttpHeaders }, res: ServerResponse) => void,
): Promise<{ url: string; server: Server }> {
  const server = createServer((req, res) =>
    req.resume().once("end", () => handler({ url: req.url ?? "/", headers: req.headers }, res)),
  );
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  cleanup.push(() => (server.closeAllConnections(), server.close()));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

async function clientOf(target: string): Promise<OpenAI> {
  const proxy = await startProxy({ target, endpoint: true, maxRetries: 0 });
  cleanup.push(() => proxy.close());
  return new OpenAI({ baseURL: `${proxy.url}/v1`, apiKey: "hf_test", maxRetries: 0 });
}

const streamed = async (client: OpenAI): Promise<string> => {
  let text = "";
  for await (const c of await client.chat.completions.create({ model: "tgi", messages, stream: true }))
    text += c.choices[0]?.delta?.content ?? "";
  return text;
};

describe("the proxy's fetch to its target", { timeout: 20_000 }, () => {
  it("keeps the connection for the next call when a stream's body ends just after [DONE]", async () => {
    const { url, server } = await serve((_req, res) => {
      res
        .writeHead(200, { "content-type": "text/event-stream" })
        .write(token("Paris.") + token("", "stop") + "data: [DONE]\n\n");
      setTimeout(() => res.end(), 10);
    });
    let connections = 0;
    server.on("connection", () => connections++);
    const client = await clientOf(url);
    for (let i = 0; i < 3; i++) {
      expect(await within(streamed(client), 5000)).toBe("Paris.");
      await new Promise((r) => setTimeout(r, 50));
    }
    expect(connections).toBe(1);
  });

  it("follows a redirect, without the caller's token to another origin", async () => {
    const seen: (string | undefined)[] = [];
    const other = await serve((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(ANSWER));
    });
    const { url } = await serve((req, res) => {
      seen.push(req.headers.authorization);
      res.writeHead(307, { location: `${other.url}${req.url}` }).end();
    });
    const client = await clientOf(url);
    const out = await within(client.chat.completions.create({ model: "tgi", messages }), 5000);
    expect(out.choices[0]?.message.content).toBe("Paris.");
    expect(seen).toEqual(["Bearer hf_test", undefined]);
  });

  it("decodes a gzip answer", async () => {
    const { url } = await serve((req, res) => {
      expect(req.headers["accept-encoding"]).toContain("gzip");
      res
        .writeHead(200, { "content-type": "application/json", "content-encoding": "gzip" })
        .end(gzipSync(JSON.stringify(ANSWER)));
    });
    const out = await within((await clientOf(url)).chat.completions.create({ model: "tgi", messages }), 5000);
    expect(out.choices[0]?.message.content).toBe("Paris.");
  });
});
