// `node packages/bench/src/typed.mjs`: the same extraction (a typed object back) and the same two-step tool task
// (two tools, then an answer from their results), written with hfkit, the `openai` package (`.parse()`,
// `runTools`) and the AI SDK (`generateText` with `Output.object`, and with tools and `stopWhen`; through
// `@ai-sdk/openai-compatible` and through `@hfkit/ai-sdk`), each against the mock hub's TGI 2.0, TGI 3.1, TGI 3.2 and
// vLLM dialects, whole and streamed. What each gets right, its steps, requests and time, in one table; it rewrites
// its section of docs/benchmarks.md. Build @hfkit/inference, @hfkit/ai-sdk and @hfkit/mock-hub first.
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { createOpenAICompatible } from "@ai-sdk/openai-compatible";
import { createHfkit } from "@hfkit/ai-sdk";
import { chatCompletion, chatCompletionStream, runTools, runToolsStream } from "@hfkit/inference";
import { startMockHub } from "@hfkit/mock-hub";
import { generateText, Output, stepCountIs, streamText, tool } from "ai";
import OpenAI from "openai";
import { zodFunction, zodResponseFormat } from "openai/helpers/zod";
import { z } from "zod";
import { isMain, version } from "./child.mjs";

const SERVERS = [
  ["TGI 2.0", "hfkit/tgi-2.0", "tgi"],
  ["TGI 3.1", "hfkit/tgi-3.1", "tgi"],
  ["TGI 3.2", "hfkit/tgi-3.2", "tgi"],
  ["vLLM", "hfkit/vllm", "openai"],
];
const Place = z.object({ city: z.string(), country: z.string() });
const QUESTION = [{ role: "user", content: "What is the weather in Paris, and the time there?" }];
const EXTRACT = [{ role: "user", content: "Where is the Eiffel Tower? Answer with the city and the country." }];

/** The tools of the two-step task, and a check of what a run did: both run once, then an answer that uses their results. */
function toolTask() {
  const ran = [];
  return {
    ran,
    weather: async ({ city }) => (ran.push("weather"), { city, sky: "clear" }),
    time: async ({ zone }) => (ran.push("time"), `12:00 in ${zone}`),
    /** Right: each tool ran (once per call the model made) and the final text quotes a result. */
    right: (text) => ran.includes("weather") && typeof text === "string" && /clear|12:00/.test(text),
  };
}

/** One client's attempt: what it got, in how many requests and how long; an error is a wrong result, named. */
async function attempt(hub, fn) {
  const before = hub.requests.length;
  const started = performance.now();
  try {
    const { right, steps, note } = await fn();
    return { right, steps, requests: hub.requests.length - before, ms: performance.now() - started, note };
  } catch (error) {
    const name = error?.constructor?.name ?? "Error";
    return {
      right: false,
      requests: hub.requests.length - before,
      ms: performance.now() - started,
      note: `${name}: ${String(error?.message ?? error)
        .split("\n")[0]
        .slice(0, 90)}`,
    };
  }
}

const valid = (value) => Place.safeParse(value).success;

/** The clients, each task written as its documentation shows. */
function clients(hub, modelId, backend) {
  const endpoint = `${hub.url}/models/${modelId}`;
  const openai = new OpenAI({ apiKey: "hf_bench", baseURL: `${endpoint}/v1`, maxRetries: 0 });
  const compatible = createOpenAICompatible({
    name: "hf",
    baseURL: `${endpoint}/v1`,
    apiKey: "hf_bench",
    supportsStructuredOutputs: true,
  });
  const hfkitAi = createHfkit({ accessToken: "hf_bench", maxRetries: 0 });
  const aiModels = [
    ["AI SDK + openai-compatible", compatible.chatModel("tgi")],
    ["AI SDK + @hfkit/ai-sdk", hfkitAi(modelId, { endpointUrl: endpoint, backend })],
  ];
  const options = { endpointUrl: endpoint, backend, maxRetries: 0 };
  const format = { type: "json_schema", json_schema: { name: "place", schema: Place } };
  const hfTools = (t) => [
    { name: "weather", parameters: z.object({ city: z.string() }), run: t.weather },
    { name: "time", parameters: z.object({ zone: z.string() }), run: t.time },
  ];
  const aiTools = (t) => ({
    weather: tool({ inputSchema: z.object({ city: z.string() }), execute: t.weather }),
    time: tool({ inputSchema: z.object({ zone: z.string() }), execute: t.time }),
  });
  const oaTools = (t) => [
    zodFunction({ name: "weather", parameters: z.object({ city: z.string() }), function: t.weather }),
    zodFunction({ name: "time", parameters: z.object({ zone: z.string() }), function: t.time }),
  ];
  return {
    extract: {
      hfkit: async () => ({
        right: valid(
          (await chatCompletion({ messages: EXTRACT, response_format: format }, options)).choices[0]?.message.parsed,
        ),
      }),
      "hfkit, streamed": async () => {
        let parsed;
        for await (const c of chatCompletionStream({ messages: EXTRACT, response_format: format }, options))
          parsed = c.choices[0]?.parsed ?? parsed;
        return { right: valid(parsed) };
      },
      openai: async () => ({
        right: valid(
          (
            await openai.chat.completions.parse({
              model: "tgi",
              messages: EXTRACT,
              response_format: zodResponseFormat(Place, "place"),
            })
          ).choices[0]?.message.parsed,
        ),
      }),
      ...Object.fromEntries(
        aiModels.map(([name, model]) => [
          name,
          async () => ({
            right: valid(
              (await generateText({ model, messages: EXTRACT, output: Output.object({ schema: Place }) })).output,
            ),
          }),
        ]),
      ),
    },
    tools: {
      hfkit: async () => {
        const t = toolTask();
        const run = await runTools({ messages: QUESTION, tools: hfTools(t) }, options);
        return { right: t.right(run.message.content), steps: run.steps.length };
      },
      "hfkit, streamed": async () => {
        const t = toolTask();
        let run;
        for await (const e of runToolsStream({ messages: QUESTION, tools: hfTools(t) }, options))
          if (e.type === "done") run = e.run;
        return { right: t.right(run?.message.content), steps: run?.steps.length };
      },
      openai: async () => {
        const t = toolTask();
        const runner = openai.chat.completions.runTools({ model: "tgi", messages: QUESTION, tools: oaTools(t) });
        const text = await runner.finalContent();
        return { right: t.right(text), steps: runner.messages.filter((m) => m.role === "assistant").length };
      },
      "openai, streamed": async () => {
        const t = toolTask();
        const runner = openai.chat.completions.runTools({
          model: "tgi",
          messages: QUESTION,
          tools: oaTools(t),
          stream: true,
        });
        const text = await runner.finalContent();
        return { right: t.right(text), steps: runner.messages.filter((m) => m.role === "assistant").length };
      },
      ...Object.fromEntries(
        aiModels.flatMap(([name, model]) => [
          [
            name,
            async () => {
              const t = toolTask();
              const result = await generateText({
                model,
                messages: QUESTION,
                tools: aiTools(t),
                stopWhen: stepCountIs(5),
              });
              return { right: t.right(result.text), steps: result.steps.length };
            },
          ],
          [
            `${name}, streamed`,
            async () => {
              const t = toolTask();
              const result = streamText({ model, messages: QUESTION, tools: aiTools(t), stopWhen: stepCountIs(5) });
              return { right: t.right(await result.text), steps: (await result.steps).length };
            },
          ],
        ]),
      ),
    },
  };
}

export async function measureTyped(rounds = 3) {
  const hub = await startMockHub();
  const rows = [];
  try {
    for (const [server, modelId, backend] of SERVERS) {
      const tasks = clients(hub, modelId, backend);
      for (const [task, byClient] of Object.entries(tasks)) {
        for (const [client, fn] of Object.entries(byClient)) {
          const runs = [];
          for (let r = 0; r < rounds; r++) runs.push(await attempt(hub, fn));
          const last = runs.at(-1);
          const ms = runs.map((x) => x.ms).sort((a, b) => a - b)[Math.floor(runs.length / 2)];
          rows.push({
            task,
            server,
            client,
            right: runs.every((x) => x.right),
            steps: last.steps,
            requests: last.requests,
            ms,
            note: runs.find((x) => !x.right)?.note ?? "",
          });
        }
      }
    }
  } finally {
    await hub.close();
  }
  return rows;
}

function table(rows) {
  const lines = [
    "| task | server | client | right | steps | requests | median ms | what went wrong |",
    "| --- | --- | --- | --- | ---: | ---: | ---: | --- |",
  ];
  for (const r of rows) {
    const task = r.task === "extract" ? "extraction" : "two tools, then an answer";
    lines.push(
      `| ${task} | ${r.server} | ${r.client} | ${r.right ? "yes" : "**no**"} | ${r.steps ?? ""} | ${r.requests} | ${r.ms.toFixed(1)} | ${r.note.replace(/\|/g, "\\|")} |`,
    );
  }
  return lines.join("\n");
}

export function typedSection(rows) {
  const date = new Date().toISOString().slice(0, 10);
  return `<!-- typed:begin: \`node packages/bench/src/typed.mjs\` rewrites what is between these markers -->
## Typed answers and tools, side by side

The same extraction (\`{ city, country }\` checked with Zod) and the same two-step tool task (the model calls
\`weather\` and \`time\`, then answers from their results) written as each client's documentation shows: hfkit
(\`chatCompletion\` with a \`json_schema\` format, \`runTools\`), \`openai\` (\`chat.completions.parse\` with
\`zodResponseFormat\`, \`chat.completions.runTools\` with \`zodFunction\`) and the AI SDK (\`generateText\` with
\`Output.object\`, and with \`tools\` and \`stopWhen: stepCountIs(5)\`; \`streamText\` for the streamed rows), the AI
SDK through \`@ai-sdk/openai-compatible\` (\`supportsStructuredOutputs: true\`) and through \`@hfkit/ai-sdk\`. Each
against the [mock hub](mock-hub.md)'s dialects of TGI 2.0 and 3.1 (tool calls streamed as one object with an empty
id; whole answers with the arguments as an object), TGI 3.2 and vLLM. "Right": the value follows the schema, or every
tool ran and the answer uses the results. Median of 3 runs, same process. Last run: ${date}, Node ${process.version},
\`openai\` ${version("openai")}, \`ai\` ${version("ai")}, \`@ai-sdk/openai-compatible\` ${version("@ai-sdk/openai-compatible")}.

${table(rows)}

What the rows show: on vLLM every client gets both tasks right. On TGI the others trip on its dialect, as users of
TGI endpoints meet it: OpenAI's \`json_schema\` is refused by TGI's chat route (a 422: TGI takes its own \`json\`
grammar), its whole answers carry tool arguments as an object (\`openai\` and \`@ai-sdk/openai-compatible\` fail to
read them) and up to 3.1 its streams send a tool call as one object with an empty id (\`tool_calls is not iterable\`;
the AI SDK's compatible provider streams a step with no call). hfkit, and the AI SDK through \`@hfkit/ai-sdk\`, speak
each dialect and get them right. TGI 2.0's chat route ignores a schema altogether: no client gets the value there,
and hfkit says so with a \`StructuredOutputError\` (\`reason: "json"\`) that keeps the text.

Run this section alone with \`node packages/bench/src/typed.mjs\`; it rewrites only what is between its markers.
<!-- typed:end -->`;
}

if (isMain(import.meta.url)) {
  const rows = await measureTyped(3);
  console.log(table(rows));
  const path = fileURLToPath(new URL("../../../docs/benchmarks.md", import.meta.url));
  const doc = readFileSync(path, "utf8");
  const section = typedSection(rows);
  const begin = doc.indexOf("<!-- typed:begin");
  const end = doc.indexOf("<!-- typed:end -->");
  const next =
    begin >= 0 && end > begin
      ? doc.slice(0, begin) + section + doc.slice(end + "<!-- typed:end -->".length)
      : doc.replace("\n## Running", `\n${section}\n\n## Running`);
  writeFileSync(path, next);
  console.log(`\nwrote its section of ${path}`);
}
