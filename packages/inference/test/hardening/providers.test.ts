/**
 * Round three on the provider tasks, through real HTTP on loopback (a raw `node:net` server as the router, the
 * Hub and the provider): server text never brings the token into an error, every request of a call is timed,
 * a URL a provider names inside the network is not fetched, a billed submission is sent once, and the Hub's
 * mapping is per token. Each test fails on the code before its fix.
 */
import { describe, expect, it } from "vitest";
import {
  ConnectionError,
  InferenceClient,
  InferenceClientProviderOutputError,
  AuthenticationError,
  ServerError,
  TimeoutError,
} from "../../src/index";
import { mappingMemory } from "../../src/targets/providers/mapping";
import { chunked, type RawRequest, type RawServer, whole } from "../faults/raw-server";
import { closedPort, within } from "../faults/support";
import { expectNoSecret, falMapping, HF_SECRET, PROVIDER_KEY, routedFetch, until, useRawServer } from "./support";

const MODEL = "org/image-model";
const JSON_TYPE = "application/json";
const hub = useRawServer(() => {
  mappingMemory.clear();
  mappingMemory.lookups.clear();
});

const isLookup = (r: RawRequest): boolean => r.target.startsWith("/api/models/");
const isSubmission = (r: RawRequest): boolean => r.method === "POST" && r.target.startsWith("/fal-ai/");

/** fal's queue on `raw`: the mapping, a submission answered `submitted`, polls answered by `poll`, the result `{images}`. */
function falQueue(
  submitted: Record<string, unknown>,
  poll: (req: RawRequest, reply: Parameters<Parameters<RawServer["handle"]>[0]>[1]) => void,
  image = "https://cdn.example/x.png",
): void {
  hub.server.handle((req, reply) => {
    if (isLookup(req)) return whole(reply, 200, JSON_TYPE, falMapping(MODEL));
    if (isSubmission(req)) return whole(reply, 200, JSON_TYPE, JSON.stringify(submitted));
    if (req.target.includes("/status")) return poll(req, reply);
    return whole(reply, 200, JSON_TYPE, JSON.stringify({ images: [{ url: image }] }));
  });
}

const QUEUED = { request_id: "r1", status: "IN_QUEUE", response_url: "https://queue.fal.run/fal-ai/flux/requests/r1" };

describe("class 1: the token in no rendering of any error", () => {
  it("a provider's failure reason echoing the token (Novita's task error): no rendering of the error shows it", async () => {
    hub.server.handle((req, reply) => {
      if (isLookup(req)) {
        const mapping = { novita: { providerId: "MiniMax-H3", task: "image-text-to-video", status: "live" } };
        return whole(reply, 200, JSON_TYPE, JSON.stringify({ inferenceProviderMapping: mapping }));
      }
      if (req.method === "POST") return whole(reply, 200, JSON_TYPE, JSON.stringify({ task_id: "t1" }));
      return whole(
        reply,
        200,
        JSON_TYPE,
        JSON.stringify({ task: { status: "failed", error: { message: `quota of ${HF_SECRET} exceeded` } } }),
      );
    });
    const client = new InferenceClient(HF_SECRET, { fetch: routedFetch(hub.server) });
    const error = await client
      .imageTextToVideo({ model: MODEL, provider: "novita", parameters: { prompt: "a cat" } })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InferenceClientProviderOutputError);
    expect((error as Error).message).toBe("quota of [redacted] exceeded");
    expectNoSecret(error, HF_SECRET);
  });

  it("a fetch whose failure quotes the request's headers: util.inspect of the ConnectionError (its cause's stack) keeps no token", async () => {
    const quoting = ((_url: string, init: RequestInit) => {
      const headers = JSON.stringify(init.headers).replace(/Bearer /, "");
      return Promise.reject(
        new TypeError(`fetch failed`, { cause: new Error(`socket hang up; request headers ${headers}`) }),
      );
    }) as unknown as typeof fetch;
    const client = new InferenceClient(PROVIDER_KEY, {
      fetch: quoting,
      endpointUrl: hub.server.url,
      retry_on_error: false,
    });
    const error = await client.chatCompletion({ messages: [{ role: "user", content: "hi" }] }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expectNoSecret(error, PROVIDER_KEY);
  });

  it("what the logger is given passes through redaction (the token given as the model by mistake, in the loading warning)", async () => {
    const warned: string[] = [];
    let loading = true;
    hub.server.handle((_req, reply) => {
      if (!loading) return whole(reply, 200, JSON_TYPE, JSON.stringify([{ generated_text: "ok" }]));
      loading = false;
      whole(reply, 503, JSON_TYPE, JSON.stringify({ error: "Model is currently loading", estimated_time: 0.01 }));
    });
    const client = new InferenceClient(HF_SECRET, {
      baseUrl: hub.server.url,
      logger: { warn: (m: string) => void warned.push(m) },
    });
    expect(await client.textGeneration({ model: HF_SECRET, inputs: "hi" })).toEqual({ generated_text: "ok" });
    expect(warned).toHaveLength(1);
    expect(warned[0]).toContain("Model [redacted] is loading");
  });
});

describe("class 2: every wait on the network is timed", () => {
  it("a status poll whose answer never comes ends in a TimeoutError (idle), with no deadline set", async () => {
    falQueue(QUEUED, () => undefined); // accepted, never answered
    const client = new InferenceClient(HF_SECRET, { fetch: routedFetch(hub.server), idleTimeout: 300 });
    const error = await within(
      client.textToImage({ model: MODEL, provider: "fal-ai", inputs: "a cat" }).catch((e: unknown) => e),
      20_000,
      "the hung poll",
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).kind).toBe("idle");
    expect(hub.server.requests.filter((r) => r.target.includes("/status"))).toHaveLength(1);
  });

  it("blanks trickled inside a JSON answer are not data: the stall limit ends the call", async () => {
    hub.server.handle(async (_req, reply) => {
      const body = chunked(reply, 200, [["Content-Type", JSON_TYPE]]);
      body.chunk('{"generated_text":');
      while (!reply.closed) {
        body.chunk(" ");
        await new Promise((resolve) => setTimeout(resolve, 20));
      }
    });
    const client = new InferenceClient(HF_SECRET, {
      endpointUrl: hub.server.url,
      stallTimeout: 400,
      idleTimeout: 60_000,
      retry_on_error: false,
    });
    const error = await within(
      client.textGeneration({ inputs: "hi" }).catch((e: unknown) => e),
      20_000,
      "the trickling answer",
    );
    expect(error).toBeInstanceOf(TimeoutError);
    expect((error as TimeoutError).kind).toBe("stall");
  });
});

describe("class 7: a URL a provider names is not a way in", () => {
  const hostile = [
    "http://169.254.169.254/latest/meta-data/iam",
    "http://127.0.0.1:9/x.png",
    "http://[::1]/x",
    "http://localhost/x",
    "http://10.0.0.7/x",
    "http://[::ffff:7f00:1]/x",
    "http://2130706433/x",
    "http://192.168.1.1/x",
    "http://[fd00:ec2::254]/x",
  ];

  it.each(hostile)("the result naming %s: a provider output error, nothing fetched", async (url) => {
    const elsewhere: string[] = [];
    falQueue({ ...QUEUED, status: "COMPLETED" }, () => undefined, url);
    const client = new InferenceClient(HF_SECRET, { fetch: routedFetch(hub.server, elsewhere) });
    const error = await client
      .textToImage({ model: MODEL, provider: "fal-ai", inputs: "a cat" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(InferenceClientProviderOutputError);
    expect((error as Error).message).toMatch(/private or local address.*allowPrivateNetwork/);
    expect(elsewhere).toEqual([]);
  });

  it("a public URL is fetched; allowPrivateNetwork: true lets an internal one through", async () => {
    const elsewhere: string[] = [];
    const client = new InferenceClient(HF_SECRET, { fetch: routedFetch(hub.server, elsewhere) });
    falQueue({ ...QUEUED, status: "COMPLETED" }, () => undefined, "https://cdn.example/cat.png");
    expect(await client.textToImage({ model: MODEL, provider: "fal-ai", inputs: "a cat" })).toBeInstanceOf(Blob);
    falQueue({ ...QUEUED, status: "COMPLETED" }, () => undefined, "http://10.1.2.3/cat.png");
    expect(
      await client.textToImage({ model: MODEL, provider: "fal-ai", inputs: "a cat" }, { allowPrivateNetwork: true }),
    ).toBeInstanceOf(Blob);
    expect(elsewhere).toEqual(["https://cdn.example/cat.png", "http://10.1.2.3/cat.png"]);
  });
});

describe("class 8: a billed submission is sent once", () => {
  it("the connection lost after the submission was sent: one submission, a ConnectionError saying the job may exist", async () => {
    hub.server.handle((req, reply) => {
      if (isLookup(req)) return whole(reply, 200, JSON_TYPE, falMapping(MODEL));
      reply.socket.destroy(); // the request's bytes were read: the job may exist
    });
    const client = new InferenceClient(HF_SECRET, { fetch: routedFetch(hub.server), maxRetries: 2 });
    const error = await client
      .textToImage({ model: MODEL, provider: "fal-ai", inputs: "a cat" })
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(ConnectionError);
    expect((error as Error).message).toMatch(/job may exist/);
    expect(hub.server.requests.filter(isSubmission)).toHaveLength(1);
  });

  it("a 502 after acceptance is not retried; a 503 (nothing accepted) is", async () => {
    let status = 502;
    hub.server.handle((req, reply) => {
      if (isLookup(req)) return whole(reply, 200, JSON_TYPE, falMapping(MODEL));
      if (isSubmission(req) && status !== 200) {
        const answered = status;
        status = 200;
        return whole(reply, answered, JSON_TYPE, JSON.stringify({ error: "upstream" }), [["retry-after-ms", "1"]]);
      }
      if (isSubmission(req)) return whole(reply, 200, JSON_TYPE, JSON.stringify({ ...QUEUED, status: "COMPLETED" }));
      return whole(reply, 200, JSON_TYPE, JSON.stringify({ images: [{ url: "https://cdn.example/x.png" }] }));
    });
    const client = new InferenceClient(HF_SECRET, { fetch: routedFetch(hub.server), maxRetries: 2 });
    await expect(client.textToImage({ model: MODEL, provider: "fal-ai", inputs: "a cat" })).rejects.toBeInstanceOf(
      ServerError,
    );
    expect(hub.server.requests.filter(isSubmission)).toHaveLength(1);
    status = 503;
    hub.server.requests.length = 0;
    expect(await client.textToImage({ model: MODEL, provider: "fal-ai", inputs: "a cat" })).toBeInstanceOf(Blob);
    expect(hub.server.requests.filter(isSubmission)).toHaveLength(2);
  });

  it("a connection refused (nothing sent) is tried again: the job is submitted once and answered", async () => {
    const port = await closedPort();
    let refused = false;
    const routed = routedFetch(hub.server);
    const firstRefused = ((url: string, init: RequestInit) => {
      if (!refused && url.includes("_subdomain=queue") && init.method === "POST") {
        refused = true;
        return fetch(`http://127.0.0.1:${port}/`, init);
      }
      return routed(url, init);
    }) as typeof fetch;
    falQueue({ ...QUEUED, status: "COMPLETED" }, () => undefined);
    const client = new InferenceClient(HF_SECRET, { fetch: firstRefused, onRetry: () => undefined });
    expect(await client.textToImage({ model: MODEL, provider: "fal-ai", inputs: "a cat" })).toBeInstanceOf(Blob);
    expect(refused).toBe(true);
    expect(hub.server.requests.filter(isSubmission)).toHaveLength(1);
  });
});

describe("class 4: state is per credential", () => {
  const OTHER = "hf_AnotherUsersValidToken0987654321";

  /** The Hub answers 401 to `refused` (after `hold` resolves) and the mapping to any other token. */
  function hubRefusing(refused: string, hold: Promise<void>): void {
    hub.server.handle(async (req, reply) => {
      if (isLookup(req)) {
        await hold;
        if (req.headers.authorization === `Bearer ${refused}`)
          return whole(reply, 401, JSON_TYPE, JSON.stringify({ error: "Invalid credentials" }));
        return whole(reply, 200, JSON_TYPE, falMapping(MODEL));
      }
      if (isSubmission(req)) return whole(reply, 200, JSON_TYPE, JSON.stringify({ ...QUEUED, status: "COMPLETED" }));
      return whole(reply, 200, JSON_TYPE, JSON.stringify({ images: [{ url: "https://cdn.example/x.png" }] }));
    });
  }

  it("a 401 for one token never fails a concurrent caller with a valid one", async () => {
    let open!: () => void;
    hubRefusing(HF_SECRET, new Promise<void>((resolve) => (open = resolve)));
    const fetchIt = routedFetch(hub.server);
    const bad = new InferenceClient(HF_SECRET, { fetch: fetchIt })
      .textToImage({ model: MODEL, provider: "fal-ai", inputs: "a cat" })
      .catch((e: unknown) => e);
    await until(() => hub.server.requests.some(isLookup), "the first lookup");
    const good = new InferenceClient(OTHER, { fetch: fetchIt }).textToImage({
      model: MODEL,
      provider: "fal-ai",
      inputs: "a cat",
    });
    await until(() => hub.server.requests.filter(isLookup).length === 2, "the second caller's own lookup", 100).catch(
      () => undefined,
    );
    open();
    expect(await bad).toBeInstanceOf(AuthenticationError);
    expect(await good).toBeInstanceOf(Blob);
  });

  it("a mapping fetched with one token is not served to another without the Hub seeing that token", async () => {
    hubRefusing("hf_nobodyAtAllxxxxxxxxxxxxxxxxxxx", Promise.resolve());
    const fetchIt = routedFetch(hub.server);
    await new InferenceClient(HF_SECRET, { fetch: fetchIt }).textToImage({
      model: MODEL,
      provider: "fal-ai",
      inputs: "a cat",
    });
    await new InferenceClient(OTHER, { fetch: fetchIt }).textToImage({
      model: MODEL,
      provider: "fal-ai",
      inputs: "a cat",
    });
    await new InferenceClient(OTHER, { fetch: fetchIt }).textToImage({
      model: MODEL,
      provider: "fal-ai",
      inputs: "a cat",
    });
    expect(hub.server.requests.filter(isLookup).map((r) => r.headers.authorization)).toEqual([
      `Bearer ${HF_SECRET}`,
      `Bearer ${OTHER}`,
    ]);
  });
});
