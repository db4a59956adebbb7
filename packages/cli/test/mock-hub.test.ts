import { expect, it } from "vitest";
import { envLines, parseFaultSpec, parseModelSpec } from "../src/commands/mockHubSpec";
import { Child, hfkit, postChat, started } from "./run";

/** The variables the export lines set. */
function exported(stdout: string): Record<string, string> {
  return Object.fromEntries([...stdout.matchAll(/^export (\w+)=(.*)$/gm)].map((m) => [m[1] ?? "", m[2] ?? ""]));
}

it("mock-hub --model NAME=KIND:loading=S and --fault TYPE:KEY=N@MODEL: chat sees the loading line, then the answer; the fault", async () => {
  const hub = new Child([
    "mock-hub",
    "--port",
    "0",
    "--model",
    "acme/slow=tgi-3.2:loading=2",
    "--model",
    "acme/v=vllm",
    "--fault",
    "unauthorized@acme/locked",
    "--fault",
    "serverError:status=502,times=1@acme/v",
  ]);
  const url = await started(hub);
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
  try {
    const slow = await hfkit(["chat", "--base-url", url, "-m", "acme/slow", "hi"]);
    expect(slow).toMatchObject({
      code: 0,
      stderr: "Model acme/slow is loading (about 2 s)...\n",
      stdout: "The capital of France is Paris.\n",
    });

    const vllm = await hfkit(["chat", "--base-url", url, "-m", "acme/v", "hi"]);
    expect(vllm.code).toBe(0);
    expect(vllm.stderr).toMatch(/^Retrying in \d+\.\d s \(server-error, HTTP 502\)\.\.\.\n$/);
    expect(vllm.stdout).toBe("The capital of France is Paris.\n");

    const locked = await hfkit(["chat", "--base-url", url, "-m", "acme/locked", "hi"]);
    expect(locked.code).toBe(1);
    expect(locked.stderr).toMatch(/^hfkit: AuthenticationError: .*HF_TOKEN/);
  } finally {
    hub.process.kill("SIGINT");
  }
  expect((await hub.exited).code).toBe(0);
});

it("model and fault specs: kinds map to the predefined models; bad specs are usage errors", async () => {
  expect(parseModelSpec("acme/old=tgi-2.0")).toEqual({ id: "acme/old", config: { tgiVersion: "2.0.2" } });
  expect(parseModelSpec("a/b=tgi-2.3.1").config).toEqual({ tgiVersion: "2.3.1" });
  expect(parseModelSpec("a/b=transformers").config).toEqual({ backend: "transformers" });
  expect(parseModelSpec("a/b=llamacpp:loading=1.5").config).toEqual({
    backend: "llamacpp",
    faults: [{ type: "loading", estimatedTime: 1.5, durationMs: 1500 }],
  });
  expect(parseFaultSpec("stall:afterChunks=2@acme/x")).toEqual({
    fault: { type: "stall", afterChunks: 2 },
    model: "acme/x",
    provider: undefined,
  });
  expect(parseFaultSpec("slow:delayMs=500")).toEqual({
    fault: { type: "slow", delayMs: 500 },
    model: undefined,
    provider: undefined,
  });
  const models = { "acme/x": { providers: ["together", { provider: "groq" }] } };
  expect(parseFaultSpec("serverError:status=503@acme/x:together", models)).toEqual({
    fault: { type: "serverError", status: 503 },
    model: "acme/x",
    provider: "together",
  });
  expect(parseFaultSpec("modelNotServed:times=1@acme/x:groq", models)).toEqual({
    fault: { type: "modelNotServed", times: 1 },
    model: "acme/x",
    provider: "groq",
  });
  expect(parseFaultSpec("rateLimit@:groq")).toEqual({
    fault: { type: "rateLimit" },
    model: undefined,
    provider: "groq",
  });
  expect(parseFaultSpec("refused@hfkit/router-multi:novita").fault).toEqual({ type: "refused" });
  expect(parseFaultSpec("toolsUnsupported@:fal-ai").fault).toEqual({ type: "toolsUnsupported" });
  expect(parseFaultSpec("badJson@hfkit/vllm").fault).toEqual({ type: "badJson" });
  expect(parseFaultSpec("schemaViolation:times=2").fault).toEqual({ type: "schemaViolation", times: 2 });
  expect(parseFaultSpec("providerNotEnabled@acme/unknown:hf-inference").provider).toBe("hf-inference");

  for (const [flag, spec, message] of [
    ["--model", "acme/x", /--model takes NAME=KIND/],
    ["--model", "acme/x=nope", /unknown kind "nope" \(one of tgi-2\.0, .*vllm/],
    ["--model", "acme/x=vllm:loading=soon", /loading must be a number of seconds > 0/],
    ["--fault", "bogus", /unknown fault "bogus" \(one of loading, /],
    ["--fault", "slow", /--fault slow needs delayMs=N/],
    ["--fault", "stall:after=2", /unknown key "after" \(it takes afterChunks, times, durationMs\)/],
    ["--fault", "rateLimit@acme/x:", /--fault: a provider's name after "acme\/x:"/],
    ["--fault", "refused:after=1@:groq", /--fault refused: unknown key "after" \(it takes times, durationMs\)/],
    ["--fault", "refused@:gr/oq", /--fault refused: "gr\/oq" is not a provider's name/],
    [
      "--fault",
      "modelNotServed@hfkit/router-multi:groq",
      /groq does not serve hfkit\/router-multi on the router \(its providers: together, novita, hf-inference\)/,
    ],
    [
      "--fault",
      "serverError@acme/unknown:together",
      /together does not serve acme\/unknown on the router \(its providers: hf-inference\)/,
    ],
  ] as const) {
    const run = await hfkit(["mock-hub", flag, spec]);
    expect(run.code, spec).toBe(2);
    expect(run.stderr, spec).toMatch(message);
  }
});

it("mock-hub --fault TYPE@MODEL:PROVIDER fails one provider of a model: hfkit chat --provider a,b moves past it", async () => {
  const hub = new Child(["mock-hub", "--port", "0", "--fault", "serverError:status=502@hfkit/router-multi:together"]);
  const url = await started(hub);
  try {
    const run = await hfkit(
      ["chat", "--router-url", url, "-m", "hfkit/router-multi", "--provider", "together,novita", "hi"],
      { env: { HF_TOKEN: "hf_cli_faults" } },
    );
    expect(run.code).toBe(0);
    expect(run.stdout).toBe("The capital of France is Paris.\n");
    expect(run.stderr).toMatch(
      /hfkit\/router-multi:together failed \(server-error\); trying hfkit\/router-multi:novita\nserved by novita/,
    );
    // Every request to together fails, not only the first: a second call moves again.
    const again = await hfkit(
      ["chat", "--router-url", url, "-m", "hfkit/router-multi", "--provider", "together,novita", "hi"],
      { env: { HF_TOKEN: "hf_cli_faults" } },
    );
    expect(again.stderr).toMatch(/together failed \(server-error\)/);
  } finally {
    hub.process.kill("SIGINT");
  }
  expect((await hub.exited).code).toBe(0);
});

it("mock-hub --fault TYPE@MODEL:PROVIDER: a 503 on one provider, a refused connection on another, the router's 400 on a third", async () => {
  const hub = new Child([
    "mock-hub",
    "--port",
    "0",
    "--fault",
    "serverError:status=503@hfkit/router-multi:together",
    "--fault",
    "refused@hfkit/router-multi:novita",
    "--fault",
    "modelNotServed:times=1@hfkit/router-multi:hf-inference",
  ]);
  const url = await started(hub);
  const post = (model: string) => postChat(url, model);
  try {
    const down = await post("hfkit/router-multi:together");
    expect([down.status, down.headers.get("x-inference-provider"), await down.json()]).toEqual([
      503,
      "together",
      { error: "Service Unavailable" },
    ]);
    await expect(post("hfkit/router-multi:novita")).rejects.toThrow(TypeError);
    const notServed = await post("hfkit/router-multi:hf-inference");
    expect([notServed.status, await notServed.json()]).toEqual([
      400,
      { error: "Model not supported by provider hf-inference" },
    ]);
    // times=1 is used up: hf-inference answers, and a failover across the three ends there.
    const run = await hfkit(
      ["chat", "--router-url", url, "-m", "hfkit/router-multi", "--provider", "together,novita,hf-inference", "hi"],
      { env: { HF_TOKEN: "hf_cli_faults" } },
    );
    expect(run).toMatchObject({ code: 0, stdout: "The capital of France is Paris.\n" });
    expect(run.stderr).toMatch(
      /together failed \(overloaded\); trying hfkit\/router-multi:novita\n.*novita failed \(connection\); trying hfkit\/router-multi:hf-inference\nserved by hf-inference/,
    );
  } finally {
    hub.process.kill("SIGINT");
  }
  expect((await hub.exited).code).toBe(0);
});

it("mock-hub prints its URL, then the export lines: code reading them runs against it unchanged, Hub and router on one URL", async () => {
  const hub = new Child(["mock-hub", "--port", "0"]);
  const url = await started(hub);
  try {
    // Not a terminal: the URL, then plain export lines, nothing else.
    expect(hub.stdout).toBe(`${url}\nexport HF_ENDPOINT=${url}\nexport HF_INFERENCE_ENDPOINT=${url}\n`);
    const env = exported(hub.stdout);
    expect(env).toEqual({ HF_ENDPOINT: url, HF_INFERENCE_ENDPOINT: url });
    const chat = await hfkit(["chat", "-m", "hfkit/router-multi", "hi"], { env });
    expect(chat).toMatchObject({ code: 0, stdout: "The capital of France is Paris.\n" });
    const snippet = await hfkit(["snippet", "hfkit/tgi-3.2", "--lang", "sh"], { env });
    expect(snippet.code, snippet.stderr).toBe(0);
    expect(snippet.stdout).toContain('"model": "hfkit/tgi-3.2"');
    // The router's routes and the Hub's on the one base URL.
    const fillMask = await fetch(`${env.HF_INFERENCE_ENDPOINT}/hf-inference/models/hfkit/fill-mask`, {
      method: "POST",
      body: JSON.stringify({ inputs: "[MASK] is a city." }),
    });
    expect((await fillMask.json())[0].token_str).toBe("paris");
    expect((await fetch(`${env.HF_INFERENCE_ENDPOINT}/v1/models`)).status).toBe(200);
    const card = await (await fetch(`${env.HF_ENDPOINT}/api/models/hfkit/fill-mask?expand[]=pipeline_tag`)).json();
    expect(card).toMatchObject({ id: "hfkit/fill-mask", pipeline_tag: "fill-mask" });
  } finally {
    hub.process.kill("SIGINT");
  }
  expect((await hub.exited).code).toBe(0);
  // One line per request on stderr, with its model and status.
  expect(hub.stderr).toMatch(/^POST \/v1\/chat\/completions model=hfkit\/router-multi 200 \d+ms$/m);
  expect(hub.stderr).toMatch(/^GET \/api\/models\/hfkit\/tgi-3\.2 model=hfkit\/tgi-3\.2 200 \d+ms$/m);
});

it("mock-hub --strict: an HF_TOKEN line the hub takes; without a token a call is refused, an unknown model too; never the token in a log line", async () => {
  const hub = new Child(["mock-hub", "--port", "0", "--strict"]);
  await started(hub);
  await hub.until(() => /^export HF_TOKEN=/m.test(hub.stdout));
  const env = exported(hub.stdout);
  try {
    expect(env.HF_TOKEN).toMatch(/^hf_\w+$/);
    expect(await hfkit(["chat", "-m", "hfkit/tgi-3.2", "hi"], { env })).toMatchObject({
      code: 0,
      stdout: "The capital of France is Paris.\n",
    });
    const none = await hfkit(["chat", "-m", "hfkit/tgi-3.2", "hi"], { env: { ...env, HF_TOKEN: "" } });
    expect(none.code).toBe(1);
    expect(none.stderr).toMatch(/^hfkit: AuthenticationError: Invalid username or password\./);
    const unknown = await hfkit(["chat", "-m", "acme/unknown", "hi"], { env });
    expect(unknown.code).toBe(1);
    expect(unknown.stderr).toMatch(
      /The requested model 'acme\/unknown' is not supported by any provider you have enabled/,
    );
  } finally {
    hub.process.kill("SIGINT");
  }
  expect((await hub.exited).code).toBe(0);
  expect(hub.stderr).toMatch(/^POST \/v1\/chat\/completions model=acme\/unknown 400 \d+ms$/m);
  expect(hub.stderr).not.toContain(env.HF_TOKEN);
});

it("mock-hub --quiet: no line per request", async () => {
  const hub = new Child(["mock-hub", "--port", "0", "--quiet"]);
  const url = await started(hub);
  try {
    expect((await fetch(`${url}/api/models/hfkit/tgi-3.2`)).status).toBe(200);
  } finally {
    hub.process.kill("SIGINT");
  }
  expect(await hub.exited).toMatchObject({ code: 0 });
  expect(hub.stderr).toBe("");
});

it("the export lines: on a terminal a comment first; an IPv6 URL quoted (its brackets are a glob to the shell)", () => {
  expect(envLines("http://127.0.0.1:8123", false, true)).toBe(
    "# paste into the shell where your code runs:\nexport HF_ENDPOINT=http://127.0.0.1:8123\nexport HF_INFERENCE_ENDPOINT=http://127.0.0.1:8123\n",
  );
  expect(envLines("http://[::1]:8123", true, false)).toBe(
    "export HF_ENDPOINT='http://[::1]:8123'\nexport HF_INFERENCE_ENDPOINT='http://[::1]:8123'\nexport HF_TOKEN=hf_mock_hub_token\n",
  );
});
