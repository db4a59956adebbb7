import type { ChatBackend } from "./backend";
import { openai } from "./openai";
import { tgi } from "./tgi";
import { transformers } from "./transformers";

/** Every backend, by name: a new server kind is one file and one line here. */
export const BACKENDS: Readonly<Record<ChatBackend["name"], ChatBackend>> = { openai, tgi, transformers };
