/**
 * The tool runner (loaded on first use): the model is called with the tools' definitions; the calls it asks for run
 * concurrently, each checked, approved and timed; their results go back to it; until it answers without tools or
 * `maxSteps` is reached. Each step is a chat call through the whole call core (its timeouts, retries, dialects and
 * failover), handed in by the task. One clock spans the loop: the call's `timeout` and `signal` end every step and
 * every running tool.
 */
import { StreamCollector } from "../core/collect";
import { type InferenceError, InputError } from "../core/errors";
import { isRecord } from "../core/json";
import { sealError } from "../core/redact";
import { ToolError } from "../core/toolError";
import { checkJsonSchema } from "../checks/jsonSchema";
import type {
  ChatCompletionArgs,
  ChatCompletionInputMessage,
  ChatCompletionOutput,
  ChatCompletionOutputMessage,
  ChatCompletionStreamOutput,
  ChatCompletionUsage,
  Options,
  RunToolsArgs,
  RunToolsOptions,
  StandardIssue,
  Tool,
  ToolCallRequest,
  ToolCallResult,
  ToolRun,
  ToolRunEvent,
  ToolStep,
} from "../types";
import { spanCall } from "../targets/chat";
import { toolRan } from "./observe";
import { isStandard, jsonSchemaOf } from "./structured";
import { said, toolError } from "./toolErrors";

/** The chat calls a loop's steps are made with (the task's own: every step goes through the call core). */
export interface StepCalls {
  readonly whole: (args: ChatCompletionArgs, options: Options) => Promise<ChatCompletionOutput>;
  readonly stream: (args: ChatCompletionArgs, options: Options) => AsyncIterable<ChatCompletionStreamOutput>;
}

const DEFAULT_MAX_STEPS = 10;
const MAX_STEPS = 100;
const DEFAULT_TOOL_TIMEOUT = 60_000;
/** The longest time a timer holds (about 24.8 days); more is no limit. */
const MAX_TIMER_MS = 2 ** 31 - 1;
/** A tool name as chat APIs take it. */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;

/** A tool, checked: its definition as the model is sent it, and how its arguments are checked. */
interface Checked {
  readonly tool: Tool<unknown>;
  readonly definition: {
    type: "function";
    function: { name: string; description?: string; parameters: Record<string, unknown> };
  };
  /** The value to run with, or the issues described; throws when the validator fails (the prepare step catches it). */
  readonly check: (value: unknown) => Promise<string | { value: unknown }>;
}

/** Every tool and option checked (an InputError naming the field) before anything is sent. */
function checkRun(
  args: RunToolsArgs,
  options: RunToolsOptions,
): { tools: Map<string, Checked>; maxSteps: number; toolTimeout: number } {
  if (!isRecord(args)) throw new InputError("The arguments must be an object", "args");
  const list: unknown = args.tools;
  if (!Array.isArray(list) || list.length === 0)
    throw new InputError("`tools` must be a non-empty list of { name, description?, parameters, run }", "tools");
  const tools = new Map<string, Checked>();
  list.forEach((tool: unknown, i) => {
    const field = `tools[${i}]`;
    if (!isRecord(tool))
      throw new InputError(`\`${field}\` must be an object: { name, description?, parameters, run }`, field);
    const { name, description, parameters, jsonSchema, run, timeout } = tool;
    if (typeof name !== "string" || !TOOL_NAME.test(name))
      throw new InputError(`\`${field}.name\` must be 1 to 64 letters, digits, _ or -`, `${field}.name`);
    if (tools.has(name))
      throw new InputError(
        `\`${field}.name\` repeats ${JSON.stringify(name)}: each tool needs a name of its own`,
        `${field}.name`,
      );
    if (typeof run !== "function")
      throw new InputError(`\`${field}.run\` must be a function (the code that runs the tool)`, `${field}.run`);
    if (description !== undefined && typeof description !== "string")
      throw new InputError(`\`${field}.description\` must be a string`, `${field}.description`);
    if (timeout !== undefined && !(typeof timeout === "number" && timeout > 0))
      throw new InputError(`\`${field}.timeout\` must be a number of milliseconds > 0`, `${field}.timeout`);
    const schema = jsonSchemaOf(parameters, jsonSchema, `${field}.parameters`);
    const validate = isStandard(parameters)
      ? async (value: unknown) => {
          const result = await parameters["~standard"].validate(value);
          return result.issues ?? { value: result.value };
        }
      : (value: unknown) => {
          const issues = checkJsonSchema(value, schema);
          return Promise.resolve(issues.length ? issues : { value });
        };
    const check = async (value: unknown) => {
      const checked = await validate(value);
      return "value" in checked ? checked : checked.slice(0, 5).map(describe).join("; ");
    };
    const fn: { name: string; description?: string; parameters: Record<string, unknown> } = {
      name,
      parameters: schema,
    };
    if (description !== undefined) fn.description = description;
    tools.set(name, { tool: tool as unknown as Tool<unknown>, definition: { type: "function", function: fn }, check }); // checked field by field above
  });
  const { maxSteps = DEFAULT_MAX_STEPS, toolTimeout = DEFAULT_TOOL_TIMEOUT, approve } = options;
  if (!(Number.isInteger(maxSteps) && maxSteps >= 1 && maxSteps <= MAX_STEPS))
    throw new InputError(
      `\`maxSteps\` must be an integer from 1 to ${MAX_STEPS} (got ${String(maxSteps)})`,
      "maxSteps",
    );
  if (!(typeof toolTimeout === "number" && toolTimeout > 0))
    throw new InputError(
      `\`toolTimeout\` must be a number of milliseconds > 0 (got ${String(toolTimeout)})`,
      "toolTimeout",
    );
  if (approve !== undefined && typeof approve !== "function")
    throw new InputError("`approve` must be a function", "approve");
  return { tools, maxSteps, toolTimeout };
}

/** A tool loop's events; its return value (and last event) is the run. */
export async function* toolLoop(
  args: RunToolsArgs,
  options: RunToolsOptions,
  calls: StepCalls,
  streamed: boolean,
): AsyncGenerator<ToolRunEvent, ToolRun, unknown> {
  const { tools, maxSteps, toolTimeout } = checkRun(args, options);
  const { maxSteps: _m, toolTimeout: _t, approve, ...chatOptions } = options;
  const span = spanCall(args, chatOptions);
  const secret = span.secret;
  /** Aborted when the loop ends, however: the tools still running are told. */
  const ended = new AbortController();
  const unlink = span.onCancel((e) => ended.abort(e));
  const messages: ChatCompletionInputMessage[] = [...args.messages];
  const steps: ToolStep[] = [];
  const usage: ChatCompletionUsage = { prompt_tokens: 0, completion_tokens: 0, total_tokens: 0 };
  const { tools: _tools, ...chat } = args;
  const definitions = [...tools.values()].map((t) => t.definition);
  try {
    for (let step = 1; ; step++) {
      const stepArgs = { ...chat, messages: [...messages], tools: definitions } as ChatCompletionArgs; // the definitions are the chat's tools
      const stepOptions = { ...chatOptions, timeout: undefined, signal: ended.signal };
      let answer: ChatCompletionOutput;
      try {
        if (streamed) {
          const collector = new StreamCollector();
          for await (const chunk of calls.stream(stepArgs, stepOptions)) {
            collector.add(chunk);
            const delta = chunk.choices[0]?.delta?.content;
            if (delta) yield { type: "text", step, delta };
          }
          answer = collector.answer();
        } else {
          answer = await span.until(calls.whole(stepArgs, stepOptions));
        }
      } catch (error) {
        span.check();
        throw error;
      }
      span.check();
      add(usage, answer.usage);
      const choice = answer.choices[0];
      const message: ChatCompletionOutputMessage = choice?.message ?? { role: "assistant", content: "" };
      const requested = (message.tool_calls ?? []).map((c, i) => ({ ...c, id: c.id || `call_${step}_${i}` }));
      if (requested.length) message.tool_calls = requested;
      messages.push(assistantMessage(message));
      const stopped = requested.length === 0 ? "answer" : step >= maxSteps ? "max-steps" : undefined;
      if (stopped) {
        const last: ToolStep = { step, answer, results: [] };
        steps.push(last);
        yield { type: "step", step: last };
        const run: ToolRun = { message, stopReason: stopped, steps, messages, usage };
        yield { type: "done", run };
        return run;
      }
      const prepared = await Promise.all(requested.map((c) => prepare(c, tools, step, secret)));
      for (const p of prepared) yield { type: "tool-call", step, call: p.request };
      const pending = new Map<number, Promise<{ i: number; result: ToolCallResult }>>();
      const { observe } = chatOptions;
      prepared.forEach((p, i) => {
        const started = performance.now();
        const ran = execute(p, approve, toolTimeout, ended.signal, secret);
        pending.set(
          i,
          ran.then((result) => {
            if (observe) toolRan(observe, step, result, started, secret);
            return { i, result };
          }),
        );
      });
      const results: ToolCallResult[] = [];
      while (pending.size) {
        const { i, result } = await span.until(Promise.race(pending.values()));
        pending.delete(i);
        results[i] = result;
        yield { type: "tool-result", step, result };
      }
      for (const r of results) messages.push({ role: "tool", tool_call_id: r.id, name: r.name, content: r.content });
      const done: ToolStep = { step, answer, results };
      steps.push(done);
      yield { type: "step", step: done };
    }
  } catch (error) {
    throw sealError(error, secret);
  } finally {
    unlink();
    if (!ended.signal.aborted) ended.abort(new InputError("The tool loop ended", "tools"));
    span.finish();
  }
}

function add(total: ChatCompletionUsage, usage: ChatCompletionUsage | null | undefined): void {
  if (!usage) return;
  total.prompt_tokens += usage.prompt_tokens || 0;
  total.completion_tokens += usage.completion_tokens || 0;
  total.total_tokens += usage.total_tokens || 0;
}

/** The assistant's message as the next step sends it back: its text and the calls it asked for. */
function assistantMessage(message: ChatCompletionOutputMessage): ChatCompletionInputMessage {
  const out: ChatCompletionInputMessage = { role: "assistant", content: message.content ?? "" };
  if (message.tool_calls?.length)
    out.tool_calls = message.tool_calls.map((c) => ({
      id: c.id,
      type: "function",
      function: { name: c.function.name, arguments: c.function.arguments },
    }));
  return out;
}

/** A call, ready to run: its tool (if the model named one), its arguments parsed and checked, or why it cannot run. */
interface Prepared {
  readonly request: ToolCallRequest;
  readonly tool: Checked | undefined;
  readonly refusal: ToolError | undefined;
}

type Call = { id: string; function: { name: string; arguments: unknown } };

/** `call` ready to run, or refused: its tool unknown, its arguments not JSON, off its parameters, or not checkable. */
async function prepare(call: Call, tools: Map<string, Checked>, step: number, secret?: string): Promise<Prepared> {
  const name = String(call.function.name);
  const raw = call.function.arguments;
  const tool = tools.get(name);
  const ready = (parsed: unknown, refusal?: ToolError): Prepared => ({
    request: { id: call.id, name, arguments: parsed, step },
    tool,
    refusal,
  });
  const refuse = (parsed: unknown, message: string, from?: { cause: unknown }): Prepared =>
    ready(parsed, toolError(tool ? "invalid-arguments" : "unknown-tool", name, message, secret, from));
  const names = [...tools.keys()].join(", ");
  if (!tool) return refuse(raw, `There is no tool named ${JSON.stringify(name.slice(0, 64))}: the tools are ${names}`);
  let parsed: unknown;
  try {
    parsed = typeof raw === "string" ? (raw.trim() === "" ? {} : JSON.parse(raw)) : raw;
  } catch (cause) {
    return refuse(raw, `The arguments of ${name} are not JSON: ${said(cause)}`, { cause });
  }
  let checked: string | { value: unknown };
  try {
    checked = await tool.check(parsed);
  } catch (cause) {
    // The validator's own failure (a recursive one's stack overflowed by a deep answer): the model is told.
    return refuse(parsed, `The arguments of ${name} could not be checked: ${said(cause)}`, { cause });
  }
  if (typeof checked !== "string") return ready(checked.value);
  return refuse(parsed, `The arguments of ${name} do not follow its parameters: ${checked}`);
}

function describe(issue: StandardIssue): string {
  const path = (issue.path ?? []).map((p) => String(p !== null && typeof p === "object" ? p.key : p)).join(".");
  return path ? `${path}: ${issue.message}` : issue.message;
}

/** Runs one call: approved, under its own time limit and the loop's signal; what it gives, or why not, as the model is told. */
async function execute(
  p: Prepared,
  approve: RunToolsOptions["approve"],
  toolTimeout: number,
  loop: AbortSignal,
  secret: string | undefined,
): Promise<ToolCallResult> {
  const { request } = p;
  const base = { id: request.id, name: request.name, arguments: request.arguments };
  const failed = (error: ToolError): ToolCallResult => ({
    ...base,
    status: error.status,
    error,
    content: `Error: ${error.message}`,
  });
  const fail = (status: ToolError["status"], message: string, from?: { cause: unknown }): ToolCallResult =>
    failed(toolError(status, request.name, message, secret, from));
  if (p.refusal || !p.tool) return p.refusal ? failed(p.refusal) : fail("unknown-tool", "No such tool");
  const { tool } = p.tool;
  try {
    const refused = approve && (await approve(request)) === false;
    if (refused) return fail("refused", `The call of ${request.name} was refused`);
  } catch (cause) {
    return fail("refused", `The call of ${request.name} was refused: its approval failed`, { cause });
  }
  const limit = Math.min(tool.timeout ?? toolTimeout, MAX_TIMER_MS);
  const own = new AbortController();
  const stop = (reason: unknown): void => own.abort(reason);
  let timer: ReturnType<typeof setTimeout> | undefined;
  const timedOut = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      const error = toolError("timeout", request.name, `${request.name} did not finish within ${limit} ms`);
      stop(error);
      reject(error);
    }, limit);
  });
  // One listener on the loop's signal, removed when the call is over: it tells the tool and ends the wait.
  let onLoopAbort = (): void => {};
  const aborted = new Promise<never>((_, reject) => {
    onLoopAbort = () => {
      stop(loop.reason);
      reject(loop.reason as InferenceError);
    };
    if (loop.aborted) onLoopAbort();
    else loop.addEventListener("abort", onLoopAbort, { once: true });
  });
  timedOut.catch(() => {});
  aborted.catch(() => {});
  try {
    const value: unknown = await Promise.race([
      Promise.resolve().then(() =>
        tool.run(request.arguments as never, { signal: own.signal, callId: request.id, step: request.step }),
      ),
      timedOut,
      aborted,
    ]);
    return { ...base, status: "ok", value, content: contentOf(value) };
  } catch (error) {
    // A ToolError (the timer's, or one the tool threw) is made again here: redacted and cut like any tool's words.
    const from = error instanceof ToolError && "cause" in error ? { cause: error.cause } : undefined;
    if (error instanceof ToolError) return fail(error.status, error.message, from);
    if (loop.aborted && error === loop.reason) throw error; // the loop ends: the call's error, not the tool's
    return fail("error", `${request.name} failed: ${said(error)}`, { cause: error });
  } finally {
    clearTimeout(timer);
    loop.removeEventListener("abort", onLoopAbort);
    if (!own.signal.aborted) own.abort(toolError("timeout", request.name, "The call is over"));
  }
}

/** What the model is sent of a tool's value: a string as is; anything else as JSON. */
function contentOf(value: unknown): string {
  if (typeof value === "string") return value;
  if (value === undefined) return "";
  try {
    return JSON.stringify(value) ?? String(value);
  } catch {
    return String(value);
  }
}
