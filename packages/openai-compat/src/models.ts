import { readCapped } from "./guard";
import { endpointRoot, routerBase, type TargetKind } from "./target";

/** What the proxy's `GET /v1/models` needs: the target, its kind, the override, and how to fetch. */
export interface ModelsSource {
  target: string;
  kind: TargetKind;
  /** The `models` option: listed as is, nothing fetched. */
  models?: string[];
  /** Where the HF router is (see {@link routerBase}): its list is `{routerUrl}/v1/models`. */
  routerUrl?: string;
  fetch?: (input: string, init?: RequestInit) => Promise<Response>;
  fetchOptions?: Record<string, unknown>;
  headers?: Record<string, string>;
}

/** The largest model list read (the HF router's is well under 1 MB): past it the list is refused, never buffered. */
export const MAX_MODELS_BYTES = 8 * 1024 * 1024;

/** A status and the JSON body to answer with. */
export interface ModelsAnswer {
  status: number;
  body: unknown;
}

const list = (data: unknown[]): ModelsAnswer => ({ status: 200, body: { object: "list", data } });

function failure(status: number, message: string): ModelsAnswer {
  const types: Record<number, string> = {
    401: "authentication_error",
    403: "permission_error",
    404: "not_found_error",
    429: "rate_limit_error",
  };
  const type = types[status] ?? (status >= 500 ? "upstream_error" : "invalid_request_error");
  return { status, body: { error: { message, type, code: null, param: null } } };
}

/**
 * Where the target lists its models: the router's list (at `routerUrl`, else `HF_INFERENCE_ENDPOINT`, else the HF
 * router's), or an endpoint's own `/v1/models`; none for an hf-inference base.
 */
export function modelsUrl(target: string, kind: TargetKind, routerUrl?: string): string | undefined {
  if (kind === "router") return `${routerBase(routerUrl)}/v1/models`;
  return kind === "endpoint" ? `${endpointRoot(target)}/v1/models` : undefined;
}

/**
 * OpenAI's model list: the `models` override; else the target's own list, fetched with the caller's
 * token (an endpoint's model, the HF router's models) and passed on as `{"object": "list", "data"}`;
 * else (an hf-inference base, which has no list) an empty list. A failure is the target's status with
 * OpenAI's error body; no answer, or a list over {@link MAX_MODELS_BYTES}, is 502 (504 once `signal` aborts).
 */
export async function listModels(
  source: ModelsSource,
  token: string | undefined,
  signal: AbortSignal,
): Promise<ModelsAnswer> {
  if (source.models)
    return list(source.models.map((id) => ({ id, object: "model", created: 0, owned_by: "huggingface" })));
  const url = modelsUrl(source.target, source.kind, source.routerUrl);
  if (url === undefined) return list([]);
  try {
    return await fetchList(source, url, token, signal);
  } catch (error) {
    if (signal.aborted) return failure(504, "The target did not list its models in time");
    return failure(
      502,
      `The target could not be reached to list its models: ${String((error as Error)?.message ?? error)}`,
    );
  }
}

/** The target's list at `url`, read to at most {@link MAX_MODELS_BYTES}; an error status is answered without its body. */
async function fetchList(
  source: ModelsSource,
  url: string,
  token: string | undefined,
  signal: AbortSignal,
): Promise<ModelsAnswer> {
  const headers: Record<string, string> = { ...source.headers, accept: "application/json" };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await (source.fetch ?? globalThis.fetch)(url, { ...source.fetchOptions, method: "GET", headers, signal });
  if (res.status >= 400) {
    void res.body?.cancel().catch(() => {});
    return failure(res.status, `The target answered ${res.status} to GET /v1/models`);
  }
  const text = await readCapped(res, MAX_MODELS_BYTES, signal);
  const tooLarge = `The target's model list is larger than ${MAX_MODELS_BYTES} bytes; reading stopped there`;
  if (text === undefined) return failure(502, tooLarge);
  const data = parseData(text);
  return data ? list(data) : failure(502, "The target's model list is not OpenAI's `{\"data\": [...]}`");
}

function parseData(text: string): unknown[] | undefined {
  try {
    const body = JSON.parse(text) as { data?: unknown } | null;
    return Array.isArray(body?.data) ? body.data : undefined;
  } catch {
    return undefined;
  }
}
