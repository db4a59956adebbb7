import type { SnippetClient, SnippetLanguage } from "./types";

export const USAGE =
  "usage: hfkit snippet MODEL_ID [--lang js|python|sh] [--client hfkit|openai|huggingface_hub|curl] [--no-stream] [--model-file FILE] [--base-url URL] [--endpoint URL]";

const LANGUAGES: readonly SnippetLanguage[] = ["js", "python", "sh"];
const CLIENTS: readonly SnippetClient[] = ["hfkit", "openai", "huggingface_hub", "curl"];
const VALUE_FLAGS = ["--lang", "--client", "--model-file", "--base-url", "--endpoint"] as const;
type ValueFlag = (typeof VALUE_FLAGS)[number];

export interface SnippetCommand {
  help: boolean;
  modelId?: string;
  lang?: SnippetLanguage;
  client?: SnippetClient;
  streaming: boolean;
  modelFile?: string;
  baseUrl?: string;
  endpointUrl?: string;
}

/** Bad usage: reported on one line, exit code 2. */
export class UsageError extends Error {}

const isValueFlag = (name: string): name is ValueFlag => (VALUE_FLAGS as readonly string[]).includes(name);

function oneOf<T extends string>(flag: string, value: string, allowed: readonly T[]): T {
  if ((allowed as readonly string[]).includes(value)) return value as T;
  throw new UsageError(`${flag} must be one of ${allowed.join(", ")} (got "${value}")`);
}

function checkUrl(flag: string, value: string): string {
  if (!/^https?:\/\/[^\s/]+/.test(value)) throw new UsageError(`${flag} must be an http(s) URL (got "${value}")`);
  return value;
}

function setValue(command: SnippetCommand, flag: ValueFlag, value: string): void {
  if (flag === "--lang") command.lang = oneOf(flag, value, LANGUAGES);
  else if (flag === "--client") command.client = oneOf(flag, value, CLIENTS);
  else if (flag === "--model-file") command.modelFile = value;
  else if (flag === "--base-url") command.baseUrl = checkUrl(flag, value);
  else command.endpointUrl = checkUrl(flag, value);
}

/** `argv` is what follows `hfkit snippet`; `--flag value` and `--flag=value` both work. */
export function parseSnippetArgs(argv: readonly string[]): SnippetCommand {
  const command: SnippetCommand = { help: false, streaming: true };
  const positionals: string[] = [];
  for (let i = 0; i < argv.length; i++) {
    const arg = argv[i] ?? "";
    const [name = "", inline] = arg.startsWith("--") ? splitOnce(arg, "=") : [arg];
    if (arg === "-h" || arg === "--help") command.help = true;
    else if (arg === "--no-stream") command.streaming = false;
    else if (isValueFlag(name)) {
      const value = inline ?? argv[++i];
      if (value === undefined || (inline === undefined && value.startsWith("--")))
        throw new UsageError(`${name} needs a value`);
      setValue(command, name, value);
    } else if (arg.startsWith("-") && arg !== "-") throw new UsageError(`unknown option "${arg}"`);
    else positionals.push(arg);
  }
  return finish(command, positionals);
}

function splitOnce(text: string, separator: string): [string, string | undefined] {
  const at = text.indexOf(separator);
  return at < 0 ? [text, undefined] : [text.slice(0, at), text.slice(at + 1)];
}

function finish(command: SnippetCommand, positionals: string[]): SnippetCommand {
  if (command.help) return command;
  if (positionals.length > 1)
    throw new UsageError(`one MODEL_ID expected, got ${positionals.length}: ${positionals.join(" ")}`);
  const modelId = positionals[0];
  if (modelId !== undefined && !/^[\w.-]+(\/[\w.-]+)?$/.test(modelId)) {
    throw new UsageError(`"${modelId}" is not a model id such as "org/name"`);
  }
  if (modelId === undefined && command.modelFile === undefined)
    throw new UsageError("MODEL_ID or --model-file FILE is required");
  if (command.baseUrl && command.endpointUrl) throw new UsageError("--base-url and --endpoint cannot be used together");
  return { ...command, ...(modelId === undefined ? {} : { modelId }) };
}
