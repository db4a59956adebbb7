/** The forms an image answer takes (`outputType`), shared by hf-inference and the providers. */
import type { OutputType } from "../types";
import { malformed } from "./answers";
import { base64 } from "./inputs";

export type Image = Blob | string | Record<string, unknown>;

/** A `data:` URL of an image answered as bytes. */
export async function dataUrl(blob: Blob): Promise<string> {
  return `data:${blob.type || "image/jpeg"};base64,${base64(new Uint8Array(await blob.arrayBuffer()))}`;
}

/** The answer as asked: a Blob (default), a `data:` URL, or JSON. A base64 JSON answer is decoded; a URL in an answer is never fetched. */
export async function asOutput(
  task: string,
  value: unknown,
  outputType: OutputType | undefined,
  secret: string | undefined,
): Promise<Image> {
  if (value instanceof Blob) {
    if (outputType === "dataUrl") return dataUrl(value);
    return outputType === "json" ? { output: await dataUrl(value) } : value;
  }
  if (typeof value === "object" && value !== null && !Array.isArray(value)) {
    if (outputType === "json") return { ...value };
    const b64 = (value as { data?: { b64_json?: unknown }[] }).data?.[0]?.b64_json;
    if (typeof b64 === "string" && /^[A-Za-z0-9+/]+={0,2}$/.test(b64)) {
      if (outputType === "dataUrl") return `data:image/jpeg;base64,${b64}`;
      return new Blob([Uint8Array.from(atob(b64), (c) => c.charCodeAt(0))], { type: "image/jpeg" });
    }
  }
  throw malformed(task, "an image (a binary body, or {data: [{b64_json}]})", value, secret);
}
