import { parseSnippetArgs, type SnippetCommand, USAGE, UsageError } from "./commandArgs";
import { getSnippets } from "./getSnippets";
import type { ModelData, Snippet } from "./types";

/** What `hfkit snippet` touches, injected so the CLI (and tests) decide where it comes from. */
export interface SnippetCommandIO {
  /** Where the snippets are written. */
  stdout: {
    /** Writes text as is. */
    write(text: string): unknown;
  };
  /** Where errors are written, one line each. */
  stderr: {
    /** Writes text as is. */
    write(text: string): unknown;
  };
  /** Read for `HF_TOKEN` (sent to the Hub API only, never printed) and `HF_ENDPOINT` (the Hub's URL). */
  env: Record<string, string | undefined>;
  /** Reads a `--model-file` as UTF-8 text. */
  readFile(path: string): Promise<string>;
  /** Fetches the model's data from the Hub API (`GET {HF_ENDPOINT}/api/models/{id}`). */
  fetch(
    url: string,
    init?: { headers?: Record<string, string>; signal?: AbortSignal },
  ): Promise<{
    /** Whether the status is 2xx. */
    ok: boolean;
    /** The HTTP status. */
    status: number;
    /** The body, parsed as JSON. */
    json(): Promise<unknown>;
  }>;
}

const HUB_URL = "https://huggingface.co";
const HUB_TIMEOUT_MS = 30_000;

/** A failure that is not bad usage: one line, exit code 1. */
class CommandError extends Error {}

/**
 * `hfkit snippet MODEL_ID [--lang js|python|sh] [--client NAME] [--no-stream] [--model-file FILE]
 * [--base-url URL] [--endpoint URL]`; `argv` is what follows `snippet`. Resolves to the exit code:
 * 0, 1 (model not found, unreadable file, no snippet for the model) or 2 (bad usage).
 */
export async function runSnippetCommand(argv: string[], io: SnippetCommandIO): Promise<number> {
  try {
    const command = parseSnippetArgs(argv);
    if (command.help) {
      io.stdout.write(`${USAGE}\n`);
      return 0;
    }
    const model = await loadModel(command, io);
    // No accessToken: the printed code holds the placeholder, whatever the environment has.
    const snippets = getSnippets(model, {
      streaming: command.streaming,
      ...(command.baseUrl ? { baseUrl: command.baseUrl } : {}),
      ...(command.endpointUrl ? { endpointUrl: command.endpointUrl } : {}),
    });
    io.stdout.write(formatSnippets(select(snippets, command, model)));
    return 0;
  } catch (error) {
    if (!(error instanceof UsageError || error instanceof CommandError)) throw error;
    io.stderr.write(`hfkit snippet: ${error.message}\n`);
    return error instanceof UsageError ? 2 : 1;
  }
}

async function loadModel(command: SnippetCommand, io: SnippetCommandIO): Promise<ModelData> {
  const data = command.modelFile
    ? await readModelFile(command.modelFile, io)
    : await fetchModel(command.modelId ?? "", io);
  const model = { ...data, ...(command.modelId ? { id: command.modelId } : {}) };
  if (typeof model.id !== "string" || model.id === "") {
    throw new CommandError(`${command.modelFile} has no "id": give MODEL_ID too`);
  }
  return model as ModelData;
}

async function readModelFile(path: string, io: SnippetCommandIO): Promise<Record<string, unknown>> {
  let text: string;
  try {
    text = await io.readFile(path);
  } catch (error) {
    throw new CommandError(`cannot read ${path}: ${messageOf(error)}`);
  }
  return asModelObject(parseJson(text, path), path);
}

async function fetchModel(id: string, io: SnippetCommandIO): Promise<Record<string, unknown>> {
  const url = `${(io.env.HF_ENDPOINT || HUB_URL).replace(/\/+$/, "")}/api/models/${id}`;
  const token = io.env.HF_TOKEN;
  let response: Awaited<ReturnType<SnippetCommandIO["fetch"]>>;
  try {
    response = await io.fetch(url, {
      headers: token ? { authorization: `Bearer ${token}` } : {},
      signal: AbortSignal.timeout(HUB_TIMEOUT_MS),
    });
  } catch (error) {
    throw new CommandError(`cannot reach ${url}: ${messageOf(error)}`);
  }
  if (response.status === 401 || response.status === 404) {
    throw new CommandError(
      `model ${id} not found on the Hub (HTTP ${response.status}; a private or gated model needs HF_TOKEN)`,
    );
  }
  if (!response.ok) throw new CommandError(`the Hub answered HTTP ${response.status} for ${url}`);
  return asModelObject(await response.json().catch(() => undefined), url);
}

function parseJson(text: string, source: string): unknown {
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new CommandError(`${source} is not valid JSON: ${messageOf(error)}`);
  }
}

function asModelObject(value: unknown, source: string): Record<string, unknown> {
  if (typeof value === "object" && value !== null && !Array.isArray(value)) return value as Record<string, unknown>;
  throw new CommandError(`${source} does not hold a model's data (a JSON object)`);
}

function select(snippets: Snippet[], command: SnippetCommand, model: ModelData): Snippet[] {
  if (snippets.length === 0) {
    const tag = model.pipeline_tag ?? "none";
    throw new CommandError(
      `no snippets for ${model.id} (pipeline_tag: ${tag}): only text-generation and chat models have them`,
    );
  }
  const chosen = snippets.filter(
    (s) => (!command.lang || s.language === command.lang) && (!command.client || s.client === command.client),
  );
  if (chosen.length === 0) {
    const available = snippets.map((s) => `${s.language}/${s.client}`).join(", ");
    const asked = [command.lang, command.client].filter(Boolean).join("/");
    throw new CommandError(`no ${asked} snippet for ${model.id} (available: ${available})`);
  }
  return chosen;
}

/** One snippet as is (ready to pipe); several, each under a `==> language/client <==` header. */
function formatSnippets(snippets: Snippet[]): string {
  if (snippets.length === 1) return snippets[0]?.content ?? "";
  return snippets.map((s) => `==> ${s.language}/${s.client} <==\n${s.content}`).join("\n");
}

function messageOf(error: unknown): string {
  return (error instanceof Error ? error.message : String(error)).split("\n")[0] ?? "";
}
