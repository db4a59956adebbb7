/**
 * The default provider mappings the Hub's model API answers (hubApi.ts), and the routes the HF router
 * serves for the inference providers (`/{provider}/...`), each answering in its provider's format.
 */
import { isRecord, jsonResponse, parseJson } from "./http.js";
import { PNG_BASE64, WAV } from "./pipelines.js";
import type { FaultRegistry } from "./faults.js";
import { MOCK_PROVIDERS } from "./providers/index.js";
import { proxyGate } from "./proxy.js";
import type { ProviderMappingEntry } from "./types.js";

/** The mapping of the `hfkit/...` ids the tests use (with each provider module's), unless a model's config gives its own. */
export const DEFAULT_PROVIDER_MAPPINGS: Readonly<Record<string, Record<string, ProviderMappingEntry>>> = mergeMappings({
  "hfkit/text-to-image": {
    together: { providerId: "hfkit-together/flux", task: "text-to-image", status: "live" },
    replicate: { providerId: "hfkit-replicate/flux", task: "text-to-image", status: "live" },
    "hf-inference": { providerId: "hfkit/text-to-image", task: "text-to-image", status: "live" },
  },
  "hfkit/text-to-image-fal": {
    "fal-ai": { providerId: "hfkit-fal/flux", task: "text-to-image", status: "live" },
  },
  "hfkit/text-to-image-versioned": {
    replicate: { providerId: "hfkit-replicate/flux:5599ed30", task: "text-to-image", status: "live" },
  },
  "hfkit/text-to-image-staging": {
    together: { providerId: "hfkit-together/flux-staging", task: "text-to-image", status: "staging" },
  },
  "hfkit/text-to-image-auto": {
    "fal-ai": { providerId: "hfkit-fal/flux", task: "text-to-image", status: "staging" },
    together: { providerId: "hfkit-together/flux-auto", task: "text-to-image", status: "live" },
  },
  "hfkit/automatic-speech-recognition": {
    "fal-ai": { providerId: "hfkit-fal/whisper", task: "automatic-speech-recognition", status: "live" },
  },
  "hfkit/feature-extraction": {
    "hf-inference": { providerId: "hfkit/feature-extraction", task: "feature-extraction", status: "live" },
  },
});

function mergeMappings(
  base: Record<string, Record<string, ProviderMappingEntry>>,
): Record<string, Record<string, ProviderMappingEntry>> {
  const all: Record<string, Record<string, ProviderMappingEntry>> = { ...base };
  for (const p of MOCK_PROVIDERS)
    for (const [id, m] of Object.entries(p.mappings ?? {})) all[id] = { ...all[id], ...m };
  return all;
}

/** The files a provider's answer may name, by extension: deterministic bytes of each type. */
const FILES: Readonly<Record<string, { bytes: Uint8Array; type: string }>> = {
  png: { bytes: Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0)), type: "image/png" },
  jpg: { bytes: Uint8Array.from(atob(PNG_BASE64), (c) => c.charCodeAt(0)), type: "image/jpeg" },
  wav: { bytes: WAV, type: "audio/wav" },
  mp3: { bytes: Uint8Array.from([0x49, 0x44, 0x33, 4, 0, 0, 0, 0, 0, 0]), type: "audio/mpeg" },
  mp4: {
    bytes: Uint8Array.from([
      0, 0, 0, 0x18, 0x66, 0x74, 0x79, 0x70, 0x69, 0x73, 0x6f, 0x6d, 0, 0, 0, 0, 0x69, 0x73, 0x6f, 0x6d, 0x6d, 0x70,
      0x34, 0x31,
    ]),
    type: "video/mp4",
  },
};

/** `GET /files/{name}.{png|jpg|wav|mp3|mp4}`: the file a provider's answer names. */
export function providerFile(request: Request, path: string): Response | undefined {
  const ext = request.method === "GET" ? /^\/files\/[^/]+\.(png|jpg|wav|mp3|mp4)$/.exec(path)?.[1] : undefined;
  const file = ext ? FILES[ext] : undefined;
  return file ? new Response(file.bytes.slice(), { status: 200, headers: { "content-type": file.type } }) : undefined;
}

/** A provider's GET route (a queue's status or result), if any provider module serves `path`. */
export function providerGet(request: Request, path: string): Response | undefined {
  for (const p of MOCK_PROVIDERS)
    for (const get of p.gets ?? []) {
      const res = get(request, path);
      if (res) return res;
    }
  return undefined;
}

/** A provider's route under the router (`POST /{provider}/...`), after the proxy's faults for its model (the body's `model`, or the path's); undefined for another path. */
export async function providerRoute(
  request: Request,
  path: string,
  text: string,
  faults: FaultRegistry,
): Promise<Response | undefined> {
  const url = new URL(request.url);
  const route =
    request.method === "POST" ? MOCK_PROVIDERS.flatMap((p) => p.routes).find((r) => r.pattern.test(path)) : undefined;
  if (!route) return undefined;
  const body = /^multipart\/form-data/i.test(request.headers.get("content-type") ?? "")
    ? await formFields(request)
    : parseJson(text);
  if (!isRecord(body)) return jsonResponse(400, { error: "The body must be a JSON object or a multipart form" });
  const model = route.model ? route.model(path, body) : typeof body.model === "string" ? body.model : "";
  const refusal = await proxyGate({ request, model, faults });
  return refusal ?? route.serve(body, url.origin, request, path);
}

/** A multipart form's fields (a file as a `File`, the last value of a repeated name), read from the request's own bytes; undefined when it does not parse. */
async function formFields(request: Request): Promise<Record<string, unknown> | undefined> {
  try {
    return Object.fromEntries((await request.formData()).entries());
  } catch {
    return undefined;
  }
}
