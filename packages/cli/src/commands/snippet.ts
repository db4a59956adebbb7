import { readFile } from "node:fs/promises";
import { runSnippetCommand } from "@hfkit/snippets";
import type { Io } from "../io";
import { printable } from "../safeText";

export const SNIPPET_HELP = `hfkit snippet MODEL_ID [--lang L] [--client C] [--no-stream] [--model-file F] [--base-url U | --endpoint U]

Prints ready-to-run code that calls MODEL_ID, a chat or text-generation model: JavaScript (@hfkit/inference, and
openai for a chat model), Python (huggingface_hub, and openai for a chat model) and cURL, each under a
"==> language/client <==" header; when --lang and --client leave one, it alone (ready to pipe into a file). The
token in the code is the placeholder hf_***, never yours. What the model is comes from the Hub's API at HF_ENDPOINT
(default https://huggingface.co; offline, the mock hub's URL), sent HF_TOKEN when set (a private or gated model
needs it), or from --model-file.

  --lang L         one language: js, python or sh
  --client C       one client: hfkit, openai, huggingface_hub or curl
  --no-stream      one whole answer instead of a stream
  --model-file F   the model's data from a JSON file (what GET /api/models/MODEL_ID answers): no request
  --base-url U     the code calls an hf-inference-style base: U/models/MODEL_ID/v1/chat/completions
  --endpoint U     the code calls a dedicated endpoint: U/v1/chat/completions
  (neither: the code calls the HF router, https://router.huggingface.co/v1/chat/completions)

  e.g. hfkit snippet meta-llama/Llama-3.1-8B-Instruct --lang python --client openai
       hfkit snippet hfkit/tgi-3.2 --lang js --client hfkit --base-url http://127.0.0.1:8123 > chat.mjs`;

/** `hfkit snippet MODEL_ID …`: code for a model, from the Hub API or --model-file; never the user's token. */
export function snippet(argv: string[], io: Io): Promise<number> {
  // Snippets and errors quote the Hub's answer (model ids, tags).
  const shown = (stream: Io["stdout"]) => ({ write: (text: string) => stream.write(printable(text)) });
  return runSnippetCommand(argv, {
    stdout: shown(io.stdout),
    stderr: shown(io.stderr),
    env: io.env,
    readFile: (path) => readFile(path, "utf8"),
    fetch: (url, init) => fetch(url, init),
  });
}
