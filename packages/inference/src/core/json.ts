/** The one name for an object of named fields of any value: a JSON object read from a server, or a body built for one. */
export type JsonObject = Record<string, unknown>;

/** Whether `v` is such an object (not an array, not null). */
export const isRecord = (v: unknown): v is JsonObject => typeof v === "object" && v !== null && !Array.isArray(v);
