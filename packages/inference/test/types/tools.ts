// Tools are typed from their schemas: `run`'s arguments are the validator's output type (Zod here, through Standard
// Schema), `unknown` for a plain JSON Schema; written inside `tools` or made apart by `tool()`. Type-checked under
// `strict` (see types.test.ts): an `@ts-expect-error` with no error under it fails the check.
import { InferenceClient, runTools, runToolsStream, type Tool, tool } from "@hfkit/inference";
import { z } from "zod";

declare const client: InferenceClient;
const messages = [{ role: "user" as const, content: "Weather in Paris?" }];
const city = z.object({ city: z.string(), days: z.number().int().optional() });

export async function inline(): Promise<void> {
  await client.runTools({
    messages,
    tools: [
      {
        name: "weather",
        parameters: city,
        run: async ({ city, days }) => `${city.toUpperCase()} ${days?.toFixed(0) ?? ""}`,
      },
      { name: "add", parameters: z.object({ a: z.number(), b: z.number() }), run: ({ a, b }) => a + b },
      {
        name: "raw",
        parameters: { type: "object", properties: { q: { type: "string" } } },
        run: (args) => JSON.stringify(args),
      },
    ],
  });
  await client.runTools({
    messages,
    // @ts-expect-error `city` is a string: no toFixed
    tools: [{ name: "weather", parameters: city, run: async ({ city }) => city.toFixed(2) }],
  });
  await runTools({
    messages,
    // @ts-expect-error a plain JSON Schema gives `unknown`: narrow it first
    tools: [{ name: "raw", parameters: { type: "object" }, run: (args) => args.q }],
  });
  const loop = runToolsStream({
    messages,
    // @ts-expect-error `a` is a number
    tools: [{ name: "add", parameters: z.object({ a: z.number() }), run: ({ a }) => a.toUpperCase() }],
  });
  void loop;
}

export async function apart(): Promise<void> {
  const weather = tool({ name: "weather", parameters: city, run: ({ city }) => city.length });
  // @ts-expect-error `city` is a string
  tool({ name: "weather", parameters: city, run: ({ city }) => city.toFixed(2) });
  // @ts-expect-error the JSON Schema's arguments are `unknown`
  tool({ name: "raw", parameters: { type: "object" }, run: (args) => args.q });
  // A typed tool is a Tool of its arguments, and mixes with others, typed or not.
  const asTool: Tool<{ city: string; days?: number }> = weather;
  const annotated: Tool<{ n: number }>[] = [
    { name: "n", parameters: z.object({ n: z.number() }), run: ({ n }) => n * 2 },
  ];
  // A list typed loosely, as 4.x-era code has it.
  const loose: Tool<any>[] = [];
  await client.runTools({ messages, tools: [weather, asTool, ...annotated, ...loose] });
  await runTools({
    messages,
    tools: [weather, { name: "add", parameters: z.object({ a: z.number() }), run: ({ a }) => a + 1 }],
  });
}
