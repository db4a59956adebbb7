import { describe, expect, it } from "vitest";
import { Child, hfkit, poll, useHub } from "./run";

const hub = useHub();
const TOKEN = "hf_secret_cli_token";
const PROMPT = "What is the capital of France?";

/** Runs `hfkit proxy` with `flags` until `use` is done with its URL, then stops it; answers what it printed. */
async function withProxy(
  flags: string[],
  use: (url: string, child: Child) => Promise<void>,
): Promise<{ stderr: string; code: number | null }> {
  const child = new Child(["proxy", "--target", hub().url, ...flags]);
  await child.until(() => child.stdout.includes("\n"));
  await use(child.stdout.trim(), child);
  child.process.kill("SIGTERM");
  const { code } = await child.exited;
  return { stderr: child.stderr, code };
}

const chat = (url: string, stream: boolean) =>
  fetch(`${url}/v1/chat/completions`, {
    method: "POST",
    headers: { "content-type": "application/json", authorization: `Bearer ${TOKEN}` },
    body: JSON.stringify({ model: "hfkit/tgi-3.2", messages: [{ role: "user", content: PROMPT }], stream }),
  }).then((res) => res.text().then(() => res.status));

describe("hfkit proxy --log and --metrics", () => {
  it("--log json: one JSON line per request on stderr; --metrics: GET /metrics counts them", async () => {
    let metrics = "";
    const { stderr, code } = await withProxy(["--log", "json", "--metrics"], async (url, child) => {
      expect(await chat(url, true)).toBe(200);
      expect(await chat(url, false)).toBe(200);
      expect(await poll(() => child.stderr.trim().split("\n").length >= 2)).toBe(true);
      const res = await fetch(`${url}/metrics`);
      expect(res.status).toBe(200);
      metrics = await res.text();
    });
    expect(code).toBe(0);
    const lines = stderr
      .trim()
      .split("\n")
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(lines).toHaveLength(2);
    expect(lines[0]).toMatchObject({
      method: "POST",
      route: "/v1/chat/completions",
      model: "hfkit/tgi-3.2",
      status: 200,
      stream: true,
    });
    expect(lines[0]!.firstChunkMs).toEqual(expect.any(Number));
    expect(lines[1]).toMatchObject({ status: 200, stream: false });
    expect(stderr).not.toContain(TOKEN);
    expect(stderr).not.toContain(PROMPT);
    expect(metrics).toMatch(
      /^hfkit_proxy_requests_total\{route="\/v1\/chat\/completions",model="hfkit\/tgi-3\.2",provider="",outcome="ok"\} 2$/m,
    );
    expect(metrics).toMatch(/^hfkit_proxy_request_duration_seconds_count\{.*outcome="ok"\} 2$/m);
  });

  it("by default: no log and no /metrics; --log text: a short line per request", async () => {
    const quiet = await withProxy([], async (url) => {
      expect(await chat(url, true)).toBe(200);
      expect((await fetch(`${url}/metrics`)).status).toBe(404);
      await new Promise((r) => setTimeout(r, 100));
    });
    expect(quiet.stderr).toBe("");
    const { stderr } = await withProxy(["--log", "text"], async (url, child) => {
      expect(await chat(url, true)).toBe(200);
      expect((await fetch(`${url}/metrics`)).status).toBe(404);
      expect(await poll(() => child.stderr.trim().split("\n").length >= 2)).toBe(true);
    });
    const [line, notFound] = stderr.trim().split("\n");
    expect(line).toMatch(/^\S+Z POST \/v1\/chat\/completions 200 \d+ms model=hfkit\/tgi-3\.2 first=\d+ms/);
    expect(notFound).toMatch(/^\S+Z GET \/metrics 404 \d+ms$/);
  });

  it("--log off: nothing on stderr", async () => {
    const { stderr, code } = await withProxy(["--log", "off"], async (url) => {
      expect(await chat(url, true)).toBe(200);
      expect(await chat(url, false)).toBe(200);
      await new Promise((r) => setTimeout(r, 100));
    });
    expect(code).toBe(0);
    expect(stderr).toBe("");
  });

  it.each([
    [["--log", "yaml"], /--log must be text, json or off \(got "yaml"\)/],
    [["--log", ""], /--log must be text, json or off \(got ""\)/],
    [["--log"], /--log/],
    [["--metrics=yes"], /--metrics/],
  ])("%j is a usage error", async (flags, message) => {
    const run = await hfkit(["proxy", "--target", hub().url, ...flags]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(message);
    expect(run.stdout).toBe("");
  });
});
