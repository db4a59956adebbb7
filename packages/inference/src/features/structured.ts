/**
 * Structured output (loaded on first use, never by a chat that does not ask for it): a `json_schema`
 * `response_format` whose schema is a JSON Schema or a Standard Schema validator. The schema is sent as JSON Schema
 * (OpenAI's shape here; the TGI backend sends TGI's own), the answer parsed and validated: `message.parsed` on a
 * whole answer; on a stream, each choice's `partial` (the value so far) and, on its last chunk, `parsed`.
 */
import { callToken } from "../core/environment";
import { forgetEventText } from "../core/eventText";
import { InputError } from "../core/errors";
import { isRecord, type JsonObject } from "../core/json";
import { PartialJson } from "../core/partialJson";
import { grow } from "../core/body";
import { sealError } from "../core/redact";
import { structuredFailure } from "./structuredFailure";
import { checkJsonSchema } from "../checks/jsonSchema";
import type {
  ChatCompletionArgs,
  StandardIssue,
  ChatCompletionOutput,
  ChatCompletionStreamOutput,
  Options,
  StandardSchemaV1,
  TextGenerationCallArgs,
  TextGenerationOutput,
} from "../types";

/** A name OpenAI's protocol takes for a schema. */
const SCHEMA_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/** Past this many characters of a choice's text, a stream's chunks stop carrying `partial` (the end still carries `parsed`). */
const MAX_PARTIAL_CHARS = 1_000_000;

/** What a `json_schema` response format asks for: the format to send, and the check of an answer. */
export interface Structure {
  /** The format as OpenAI's protocol sends it: the schema as JSON Schema. */
  readonly wire: { type: "json_schema"; json_schema: JsonObject };
  /** The value of a choice's text, checked; a StructuredOutputError when it is cut, not JSON or off the schema. */
  readonly read: (text: string | undefined, finishReason: string | undefined, choice: number) => Promise<unknown>;
}

/** A Standard Schema validator (an object, or a function as ArkType's types are). */
export const isStandard = (v: unknown): v is StandardSchemaV1 => {
  const props: unknown =
    (typeof v === "object" || typeof v === "function") && v !== null ? Reflect.get(v, "~standard") : undefined;
  return isRecord(props) && typeof props.validate === "function";
};

/** The JSON Schema of a schema given as a validator or as JSON Schema; an InputError naming `field` when there is none. */
export function jsonSchemaOf(schema: unknown, beside: unknown, field: string): JsonObject {
  if (isStandard(schema)) {
    if (beside !== undefined) return jsonObject(beside, field.replace(/schema$/, "jsonSchema"));
    const convert = schema["~standard"].jsonSchema;
    if (convert === undefined || typeof convert.input !== "function") {
      throw new InputError(
        `\`${field}\` is a ${schema["~standard"].vendor} validator whose library gives no JSON Schema: give its JSON Schema beside it as \`jsonSchema\` (for Valibot, \`toJsonSchema(schema)\` from @valibot/to-json-schema)`,
        field,
      );
    }
    let converted: unknown;
    try {
      // What the model writes is what the validator takes in (its output may be transformed from it).
      converted = convert.input({ target: "draft-2020-12" });
    } catch (error) {
      throw new InputError(
        `\`${field}\` could not be converted to JSON Schema by ${schema["~standard"].vendor}: ${(error as Error).message}`,
        field,
      );
    }
    return jsonObject(converted, field);
  }
  return jsonObject(schema, field);
}

/** `value` as a JSON object a server can be sent; an InputError naming `field` otherwise. */
function jsonObject(value: unknown, field: string): JsonObject {
  if (!isRecord(value))
    throw new InputError(
      `\`${field}\` must be a JSON Schema object or a Standard Schema validator (Zod, Valibot, ArkType)`,
      field,
    );
  try {
    const copy: unknown = JSON.parse(JSON.stringify(value));
    if (isRecord(copy)) return copy;
  } catch {
    // below
  }
  throw new InputError(`\`${field}\` must be JSON (no cycles, functions or BigInts)`, field);
}

/** The structure a `json_schema` response format asks for, checked before anything is sent. */
export function structureOf(format: unknown, secret: string | undefined, schemaField?: string): Structure {
  const field = "response_format.json_schema";
  const spec = isRecord(format) ? format.json_schema : undefined;
  if (!isRecord(spec)) throw new InputError(`\`${field}\` must be an object: { name, schema, strict? }`, field);
  const { name, description, strict, schema, jsonSchema } = spec;
  if (typeof name !== "string" || !SCHEMA_NAME.test(name)) {
    throw new InputError(
      `\`${field}.name\` must be 1 to 64 letters, digits, _ or - (got ${typeof name === "string" ? JSON.stringify(name.slice(0, 80)) : typeof name})`,
      `${field}.name`,
    );
  }
  if (strict !== undefined && typeof strict !== "boolean")
    throw new InputError(`\`${field}.strict\` must be a boolean`, `${field}.strict`);
  if (description !== undefined && typeof description !== "string")
    throw new InputError(`\`${field}.description\` must be a string`, `${field}.description`);
  const json = jsonSchemaOf(schema, jsonSchema, schemaField ?? `${field}.schema`);
  const sent: JsonObject = { name, schema: json };
  if (description !== undefined) sent.description = description;
  if (strict !== undefined) sent.strict = strict;
  const validate = isStandard(schema)
    ? (value: unknown) => schema["~standard"].validate(value)
    : (value: unknown) => {
        const issues = checkJsonSchema(value, json);
        return issues.length ? { issues } : { value };
      };
  return {
    wire: { type: "json_schema", json_schema: sent },
    async read(text = "", finishReason, choice) {
      const detail = { text, choice, finishReason };
      if (finishReason === "length") throw structuredFailure("length", detail, secret);
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch (cause) {
        throw structuredFailure("json", { ...detail, cause }, secret);
      }
      const result = await validated(validate, value, detail, secret);
      if (result.issues) throw structuredFailure("schema", { ...detail, issues: result.issues }, secret);
      return result.value;
    },
  };
}

type Checked = { value?: unknown; issues?: readonly StandardIssue[] };
type Detail = { text: string; choice: number; finishReason?: string };

/**
 * The validator's result, or a "schema" StructuredOutputError when the validator itself fails (a recursive one
 * overflowing its stack on a deep answer, a throw, a result that is no result): the caller gets the typed error the
 * answer would have given, its cause kept redacted — never the validator's own RangeError.
 */
async function validated(
  validate: (value: unknown) => unknown,
  value: unknown,
  detail: Detail,
  secret: string | undefined,
): Promise<Checked> {
  let result: unknown;
  try {
    result = await validate(value);
  } catch (cause) {
    throw structuredFailure(
      "schema",
      { ...detail, issues: [{ message: `The validator failed: ${failure(cause)}` }], cause },
      secret,
    );
  }
  if (isRecord(result) && Array.isArray(result.issues)) return { issues: result.issues };
  if (isRecord(result) && result.issues === undefined && "value" in result) return { value: result.value };
  throw structuredFailure(
    "schema",
    { ...detail, issues: [{ message: "The validator gave no result ({ value } or { issues })" }] },
    secret,
  );
}

/** A thrown thing's name and message, whatever it is (reading it may throw too). */
function failure(cause: unknown): string {
  try {
    return cause instanceof Error ? `${cause.name}: ${cause.message}` : String(cause);
  } catch {
    return "an unreadable error";
  }
}

type Whole = (args: ChatCompletionArgs, options: Options) => Promise<ChatCompletionOutput>;
type Generated = (args: TextGenerationCallArgs, options: Options) => Promise<TextGenerationOutput>;

/**
 * `textGeneration` with TGI's JSON grammar (`parameters.grammar: {type: "json", value}`) whose `value` is a JSON
 * Schema or a validator: sent as JSON Schema; `generated_text` parsed and checked into `parsed`.
 */
export async function structuredGeneration(
  args: TextGenerationCallArgs,
  options: Options,
  call: Generated,
): Promise<TextGenerationOutput> {
  const field = "parameters.grammar.value";
  const grammar: JsonObject =
    isRecord(args.parameters) && isRecord(args.parameters.grammar) ? args.parameters.grammar : {};
  const structure = structureOf(
    { json_schema: { name: "grammar", schema: grammar.value, jsonSchema: grammar.jsonSchema } },
    callToken(args.accessToken),
    field,
  );
  const value = structure.wire.json_schema.schema;
  const out = await call({ ...args, parameters: { ...args.parameters, grammar: { type: "json", value } } }, options);
  const details: JsonObject = isRecord(out.details) ? out.details : {};
  out.parsed = await structure.read(
    out.generated_text,
    typeof details.finish_reason === "string" ? details.finish_reason : undefined,
    0,
  );
  return out;
}
/** `text + piece` within the bound of one answer (32 MB: a MalformedEventError past it), its error redacted. */
function grown(text: string, piece: string, secret: string | undefined): string {
  try {
    return grow(text, piece);
  } catch (error) {
    throw sealError(error, secret);
  }
}

type Streamed = (
  args: ChatCompletionArgs,
  options: Options,
) => AsyncGenerator<ChatCompletionStreamOutput, undefined, unknown>;

/** A whole structured answer: `call` is the chat call made with the schema as JSON Schema; each choice's `message.parsed` set. */
export async function structuredWhole(
  args: ChatCompletionArgs,
  options: Options,
  call: Whole,
): Promise<ChatCompletionOutput> {
  const structure = structureOf(args.response_format, callToken(args.accessToken));
  const out = await call({ ...args, response_format: structure.wire }, options);
  for (const choice of out.choices) {
    const message = choice.message;
    message.parsed = await structure.read(message.content, choice.finish_reason, choice.index);
  }
  return out;
}

/** A streamed structured answer: each choice's `partial` as its text grows, `parsed` on its last chunk (or a StructuredOutputError there). */
export async function* structuredStream(
  args: ChatCompletionArgs,
  options: Options,
  stream: Streamed,
): AsyncGenerator<ChatCompletionStreamOutput, undefined, unknown> {
  if (options.observe)
    return yield* (await import("./observe")).observedStream(args, options, (a, o) => structuredStream(a, o, stream));
  const secret = callToken(args.accessToken);
  const structure = structureOf(args.response_format, secret);
  // Each choice's text so far and its reader, resumed with each piece: re-reading the text would cost its square.
  const choices = new Map<number, { text: string; reader: PartialJson }>();
  for await (const chunk of stream({ ...args, response_format: structure.wire }, options)) {
    for (const choice of chunk.choices) {
      let seen = choices.get(choice.index);
      if (seen === undefined) choices.set(choice.index, (seen = { text: "", reader: new PartialJson() }));
      const piece = typeof choice.delta?.content === "string" ? choice.delta.content : "";
      seen.text = grown(seen.text, piece, secret);
      if (piece && seen.text.length <= MAX_PARTIAL_CHARS) {
        seen.reader.feed(piece);
        // A value that would copy more than the text has paid for is not taken: a huge list's partials thin out.
        if (seen.reader.affordable()) choice.partial = seen.reader.value();
      }
      if (choice.finish_reason) choice.parsed = await structure.read(seen.text, choice.finish_reason, choice.index);
    }
    forgetEventText(chunk);
    yield chunk;
  }
  return undefined;
}
