/** What one (provider, task) pair needs: its route under the router, its body, its headers, how its answer is read. */
import { HF_ROUTER_URL } from "../routes";
import { dataUrl } from "../../checks/images";
import { type Payload, serialize } from "../../core/request";
import type { BaseArgs, Options } from "../../types";
import type { ProviderMapping } from "./mapping";

type Loose = Record<string, unknown>;

/** A provider's format for one task, as `@huggingface/inference` 4.13's provider helper sends it. */
export interface ProviderTask {
  /** The path under `https://router.huggingface.co/{provider}/` for the provider's model id. */
  readonly path: (providerId: string) => string;
  /** Checks the arguments (an InputError before any request), then makes the body for the provider's model id (and the model's whole mapping entry, its adapter). */
  readonly body: (args: BaseArgs & Loose, options: Options & Loose) => BodyMaker;
  /** The request creates a job that is queued, polled and billed: it is never sent twice once its bytes may have gone out. */
  readonly submits?: boolean;
  /** Headers the provider needs besides the call's. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Shapes the parsed answer (JSON, or a Blob) as the task answers it; `io` fetches what the answer points to. */
  readonly answer: (value: unknown, options: Options & Loose, secret: string | undefined, io: ProviderIo) => unknown;
}

/** Makes a pair's body once the Hub's mapping of the model is known. */
export type BodyMaker = (providerId: string, mapping: ProviderMapping) => Loose | Promise<Loose>;

/** What a provider's answer may need fetched, under the call's limits and `fetch`. */
export interface ProviderIo {
  /** GETs a file the answer names (an http(s) URL, sent without the token), as a Blob. */
  readonly file: (url: string) => Promise<Blob>;
  /** GETs a route of the provider (an http(s) URL, with the call's headers), its JSON answer. */
  readonly json: (url: string) => Promise<unknown>;
  /** Waits `ms` under the call's limits. */
  readonly sleep: (ms: number) => Promise<void>;
  /** The URL of a route of the provider for this call: through the router, or its own API for its own key. */
  readonly route: (path: string) => string;
}

/** The URL of a provider's route through the HF router. */
export const providerUrl = (provider: string, path: string): string => `${HF_ROUTER_URL}/${provider}/${path.replace(/^\/+/, "")}`;

/** The arguments a provider's body starts from: the call's own fields, `inputs` and `parameters` left out (`parameters` are spread in by the caller). */
export function restOf(args: BaseArgs & Loose): Loose {
  const rest: Loose = { ...args };
  for (const own of ["accessToken", "model", "endpointUrl", "provider", "inputs", "parameters"]) delete rest[own];
  return rest;
}

/** An image a provider's answer names at `url`, as `outputType` asks: the answer itself (`"json"`), the URL (`"url"`), else the file fetched (a Blob, or a `data:` URL). */
export async function imageAt(url: string, answer: object, options: Options & Loose, io: ProviderIo): Promise<unknown> {
  if (options.outputType === "json") return { ...answer };
  if (options.outputType === "url") return url;
  const blob = await io.file(url);
  return options.outputType === "dataUrl" ? dataUrl(blob) : blob;
}

/** The key under which a provider's body maker hands over a body that is not JSON (a multipart form), sent as is. */
export const RAW_BODY = /* @__PURE__ */ Symbol("raw body");

/** A multipart form as a body: its bytes, its media type (the boundary in it), and `shown`, what errors show of it. */
export async function formBody(form: FormData, shown: Loose): Promise<Loose> {
  const res = new Response(form);
  const payload: Payload = { value: shown, json: "", bytes: await res.blob(), contentType: res.headers.get("content-type") ?? "multipart/form-data" };
  return { [RAW_BODY]: payload };
}

/** What a body maker made, as sent: a raw body as it is, anything else as JSON. */
export const payloadOf = (made: Loose): Payload => (RAW_BODY in made ? (made as { [RAW_BODY]: Payload })[RAW_BODY] : serialize(made));

const AUDIO_EXTENSIONS: Readonly<Record<string, string>> = {
  "audio/wav": "wav",
  "audio/x-wav": "wav",
  "audio/wave": "wav",
  "audio/mpeg": "mp3",
  "audio/mp3": "mp3",
  "audio/mp4": "mp4",
  "audio/m4a": "m4a",
  "audio/x-m4a": "m4a",
  "audio/flac": "flac",
  "audio/x-flac": "flac",
  "audio/ogg": "ogg",
  "audio/webm": "webm",
};

/** The file name a multipart upload gives audio: `audio.{ext}` of its media type (parameters ignored), else `audio.wav`. */
export const audioFileName = (audio: Blob): string => `audio.${AUDIO_EXTENSIONS[(audio.type.split(";")[0] ?? "").trim().toLowerCase()] ?? "wav"}`;
