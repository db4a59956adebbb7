/**
 * Schemas, typed answers and tools: what `response_format`'s `json_schema.schema` and a tool's `parameters` take
 * (a JSON Schema object, or a Standard Schema validator such as Zod 4, Valibot or ArkType), and a tool the runner calls.
 */

/** A JSON Schema, as a plain object (draft 2020-12 or draft-07). */
export interface JsonSchema {
  [keyword: string]: unknown;
}

/**
 * The Standard Schema interface, version 1 (https://standardschema.dev): what Zod 4, Valibot, ArkType and other
 * validators carry under `~standard`. Declared here, as the specification asks, so that no validation library is a
 * dependency of the SDK.
 */
export interface StandardSchemaV1<Input = unknown, Output = Input> {
  /** The validator's standard properties. */
  readonly "~standard": StandardSchemaProps<Input, Output>;
}

/** What a Standard Schema validator carries under `~standard`. */
export interface StandardSchemaProps<Input = unknown, Output = Input> {
  /** The version of the specification: 1. */
  readonly version: 1;
  /** The library, e.g. `"zod"`. */
  readonly vendor: string;
  /** Validates a value: its output, or the issues found. */
  readonly validate: (value: unknown) => StandardResult<Output> | Promise<StandardResult<Output>>;
  /** The input and output types (for inference only; not there at run time). */
  readonly types?: StandardTypes<Input, Output> | undefined;
  /** Standard JSON Schema (Zod 4, ArkType): the schema as JSON Schema, from the library itself. */
  readonly jsonSchema?: StandardJsonSchemaConverter;
}

/** A validator's input and output types, for inference. */
export interface StandardTypes<Input, Output> {
  /** What it takes. */
  readonly input: Input;
  /** What it gives. */
  readonly output: Output;
}

/** Standard JSON Schema's converter: a validator's input and output types as JSON Schema. */
export interface StandardJsonSchemaConverter {
  /** The input type's JSON Schema (`target`: `"draft-2020-12"`, `"draft-07"`); may throw for a type JSON Schema cannot say. */
  readonly input: (options: { readonly target: string }) => Record<string, unknown>;
  /** The output type's JSON Schema. */
  readonly output: (options: { readonly target: string }) => Record<string, unknown>;
}

/** A validation's result: the value, or the issues. */
export type StandardResult<Output> = StandardSuccess<Output> | StandardFailure;

/** A value that passed. */
export interface StandardSuccess<Output> {
  /** The validator's output. */
  readonly value: Output;
  /** None. */
  readonly issues?: undefined;
}

/** A value that did not pass. */
export interface StandardFailure {
  /** What is wrong with it. */
  readonly issues: readonly StandardIssue[];
}

/** One problem a validator found. */
export interface StandardIssue {
  /** What is wrong. */
  readonly message: string;
  /** Where, as keys from the root. */
  readonly path?: readonly (PropertyKey | StandardPathSegment)[] | undefined;
}

/** A key of an issue's path, as an object. */
export interface StandardPathSegment {
  /** The key. */
  readonly key: PropertyKey;
}

/**
 * A schema given to the SDK: a JSON Schema object, or a Standard Schema validator. A validator's JSON Schema is
 * taken from its library where it offers one (`~standard.jsonSchema`: Zod 4, ArkType); else give it beside
 * (`jsonSchema`, e.g. Valibot's `toJsonSchema(schema)`).
 */
export type SchemaLike<T = unknown> = JsonSchema | StandardSchemaV1<unknown, T>;

/** The type a schema describes: a validator's output type; `unknown` for a plain JSON Schema. */
export type SchemaOutput<S> = S extends StandardSchemaV1<unknown, infer T> ? T : unknown;

/** `response_format` asking for JSON that follows a schema (OpenAI's shape; hfkit sends it in each server's own). */
export interface JsonSchemaFormat<T = unknown> {
  /** `"json_schema"`. */
  type: "json_schema";
  /** The schema and its name. */
  json_schema: {
    /** A name for the schema, letters, digits, `_` and `-` (OpenAI's rule; TGI ignores it). */
    name: string;
    /** What the schema is for. */
    description?: string;
    /** A JSON Schema object, or a Standard Schema validator: the answer is parsed and validated against it. */
    schema: SchemaLike<T>;
    /** The JSON Schema of a validator whose library offers none (Valibot: `toJsonSchema(schema)`). */
    jsonSchema?: JsonSchema;
    /** OpenAI's strict mode, passed on where the server takes it. */
    strict?: boolean;
  };
}

/** Where a tool runs: its signal (aborted on its timeout, the caller's abort or the loop's end), its call and step. */
export interface ToolContext {
  /** Aborted when the tool's time is up, the caller aborts, or the loop ends: stop then. */
  readonly signal: AbortSignal;
  /** The model's id for this call of the tool. */
  readonly callId: string;
  /** The step of the loop, from 1. */
  readonly step: number;
}

/** A function the model may call, and the code that runs it. */
export interface Tool<Args = never> {
  /** The name the model calls it by: letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  /** What it does, for the model. */
  description?: string;
  /** Its arguments: a JSON Schema object, or a Standard Schema validator (the arguments are validated before `run`). */
  parameters: SchemaLike<Args>;
  /** The JSON Schema of a validator whose library offers none (Valibot: `toJsonSchema(schema)`). */
  jsonSchema?: JsonSchema;
  /** Runs the call with its checked arguments; what it returns (a string, or a value sent as JSON) is the model's answer from the tool. */
  run: (args: Args, context: ToolContext) => unknown;
  /** This tool's own time limit in ms (default: the runner's `toolTimeout`). */
  timeout?: number;
}

/**
 * A tool typed from its schema: `run`'s arguments are the output type of `parameters` (a Zod, Valibot or ArkType
 * validator's, through Standard Schema), `unknown` for a plain JSON Schema. What `tool()` makes and what
 * `runTools`' `tools` infer each element as; it is a {@link Tool} of those arguments.
 */
export interface SchemaTool<S extends SchemaLike = SchemaLike> {
  /** The name the model calls it by: letters, digits, `_` and `-`, at most 64 characters. */
  name: string;
  /** What it does, for the model. */
  description?: string;
  /** Its arguments: a JSON Schema object, or a Standard Schema validator (the arguments are validated before `run`). */
  parameters: S;
  /** The JSON Schema of a validator whose library offers none (Valibot: `toJsonSchema(schema)`). */
  jsonSchema?: JsonSchema;
  /** Runs the call with its checked arguments; what it returns (a string, or a value sent as JSON) is the model's answer from the tool. */
  run(args: SchemaOutput<S>, context: ToolContext): unknown;
  /** This tool's own time limit in ms (default: the runner's `toolTimeout`). */
  timeout?: number;
}
