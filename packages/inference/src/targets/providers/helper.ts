/** What one (provider, task) pair needs: its route under the router, its body, its headers, how its answer is read. */
import { dataUrl } from "../../checks/images";
import { type Payload, serialize } from "../../core/request";
import { isRecord, type JsonObject } from "../../core/json";
import type { BaseArgs, Options, TextToImageOptions } from "../../types";
import type { ProviderMapping } from "./mapping";

/** The call's arguments as a provider's format reads them: the fields it reads are checked where they are read. */
export type ProviderArgs = BaseArgs & {
  readonly inputs?: unknown;
  readonly parameters?: unknown;
  readonly data?: unknown;
};

/** The call's options as a provider's format reads them (text-to-image's `outputType` checked by its task first). */
export type ProviderOptions = Options & TextToImageOptions;

/** A provider's format for one task, as `@huggingface/inference` 4.13's provider helper sends it. */
export interface ProviderTask {
  /** The path under `https://router.huggingface.co/{provider}/` for the provider's model id. */
  readonly path: (providerId: string) => string;
  /** Checks the arguments (an InputError before any request), then makes the body for the provider's model id (and the model's whole mapping entry, its adapter). */
  readonly body: (args: ProviderArgs, options: ProviderOptions) => BodyMaker;
  /** The request creates a job that is queued, polled and billed: it is never sent twice once its bytes may have gone out. */
  readonly submits?: boolean;
  /** Headers the provider needs besides the call's. */
  readonly headers?: Readonly<Record<string, string>>;
  /** Shapes the parsed answer (JSON, or a Blob) as the task answers it; `io` fetches what the answer points to. */
  readonly answer: (value: unknown, options: ProviderOptions, secret: string | undefined, io: ProviderIo) => unknown;
}

/** Makes a pair's body once the Hub's mapping of the model is known. */
export type BodyMaker = (providerId: string, mapping: ProviderMapping) => ProviderBody | Promise<ProviderBody>;

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

/** The arguments a provider's body starts from: the call's own fields, `inputs` and `parameters` left out (`parameters` are spread in by the caller). */
export function restOf(args: ProviderArgs): JsonObject {
  const rest: JsonObject = { ...args };
  for (const own of ["accessToken", "model", "endpointUrl", "provider", "inputs", "parameters"]) delete rest[own];
  return rest;
}

/** `value[k0][k1]...` (a number indexes an array, a name an object), or undefined where a step is neither. */
export const get = (value: unknown, ...keys: (string | number)[]): unknown =>
  keys.reduce<unknown>(
    (o, k) => (Array.isArray(o) ? (typeof k === "number" ? o[k] : undefined) : isRecord(o) ? o[k] : undefined),
    value,
  );

/** An image a provider's answer names at `url`, as `outputType` asks: a copy of the answer (`"json"`), the URL (`"url"`), else the file fetched (a Blob, or a `data:` URL). */
export async function imageAt(
  url: string,
  answer: unknown,
  options: ProviderOptions,
  io: ProviderIo,
): Promise<unknown> {
  if (options.outputType === "json") return isRecord(answer) ? { ...answer } : answer;
  if (options.outputType === "url") return url;
  const blob = await io.file(url);
  return options.outputType === "dataUrl" ? dataUrl(blob) : blob;
}

/** The key under which a provider's body maker hands over a body that is not JSON (a multipart form), sent as is. */
export const RAW_BODY = /* @__PURE__ */ Symbol("raw body");

/** What a body maker makes: a JSON body, or (under {@link RAW_BODY}) one sent as is. */
export type ProviderBody = JsonObject & { readonly [RAW_BODY]?: Payload };

/** A multipart form as a body: its bytes, its media type (the boundary in it), and `shown`, what errors show of it. */
export async function formBody(form: FormData, shown: JsonObject): Promise<ProviderBody> {
  const res = new Response(form);
  const payload: Payload = {
    value: shown,
    json: "",
    bytes: await res.blob(),
    contentType: res.headers.get("content-type") ?? "multipart/form-data",
  };
  return { [RAW_BODY]: payload };
}

/** What a body maker made, as sent: a raw body as it is, anything else as JSON. */
export const providerPayload = (made: ProviderBody): Payload => made[RAW_BODY] ?? serialize(made);

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
export const audioFileName = (audio: Blob): string =>
  `audio.${AUDIO_EXTENSIONS[(audio.type.split(";")[0] ?? "").trim().toLowerCase()] ?? "wav"}`;
