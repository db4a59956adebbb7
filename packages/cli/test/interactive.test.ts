import { PassThrough } from "node:stream";
import { expect, it } from "vitest";
import { Interrupts } from "../src/interrupts";
import { main } from "../src/main";
import { Child, poll, useHub } from "./run";

const hub = useHub();

const MODEL = "hfkit/tgi-3.2";
const ANSWER = "The capital of France is Paris.";
const converse = (...args: string[]) =>
  new Child(["chat", "--base-url", hub().url, "-m", MODEL, "--interactive", ...args]);
const prompts = (child: Child) => child.stdout.split("> ").length - 1;
const chats = () => hub().requests.filter((r) => r.path.endsWith("/chat/completions"));

it("-i: a conversation; each request carries the history of user and assistant turns; /exit ends it", async () => {
  const child = converse("--system", "Be brief");
  await child.until(() => prompts(child) === 1);
  child.write("Capital of France?\n");
  await child.until(() => prompts(child) === 2);
  child.write("And of Italy?\n");
  await child.until(() => prompts(child) === 3);
  child.write("/exit\n");
  expect((await child.exited).code).toBe(0);
  expect(child.stdout).toBe(`> ${ANSWER}\n> ${ANSWER}\n> `);
  expect(chats()).toHaveLength(2);
  expect(chats()[1]?.body).toMatchObject({
    messages: [
      { role: "system", content: "Be brief" },
      { role: "user", content: "Capital of France?" },
      { role: "assistant", content: ANSWER },
      { role: "user", content: "And of Italy?" },
    ],
  });
});

it("Ctrl-C while an answer streams cancels that answer (its socket closed) and its turn; Ctrl-C at the prompt exits 130", async () => {
  hub().inject({ type: "stall", afterChunks: 2 }, { model: MODEL, times: 1 });
  const child = converse();
  await child.until(() => prompts(child) === 1);
  child.write("Hi\n");
  await child.until(() => child.stdout.includes("The capital"));
  child.process.kill("SIGINT");
  await child.until(() => prompts(child) === 2);
  // The process lives on: the abort itself closed the stalled stream.
  expect(await poll(() => hub().openStreams() === 0)).toBe(true);
  child.write("Again\n");
  await child.until(() => prompts(child) === 3);
  expect(chats()[1]?.body).toMatchObject({ messages: [{ role: "user", content: "Again" }] });
  child.process.kill("SIGINT");
  expect((await child.exited).code).toBe(130);
  expect(child.stdout).toBe(`> The capital\n> ${ANSWER}\n> \n`);
});

it("end of input ends the conversation (exit 0); a failed turn prints its error line and the prompt comes back", async () => {
  const child = new Child(["chat", "--base-url", hub().url, "-m", "org/does-not-exist", "-i"]);
  await child.until(() => prompts(child) === 1);
  child.write("Hi\n");
  await child.until(() => prompts(child) === 2);
  expect(child.stderr).toMatch(/^hfkit: NotFoundError: Model org\/does-not-exist does not exist/);
  child.process.stdin.end();
  expect((await child.exited).code).toBe(0);
});

it("without a prompt and with stdin a terminal, chat is a conversation (the first turn's prompt given as PROMPT with -i)", async () => {
  const stdin = Object.assign(new PassThrough(), { isTTY: true });
  const stdout = new PassThrough();
  const stderr = new PassThrough();
  let out = "";
  stdout.setEncoding("utf8").on("data", (c: string) => (out += c));
  const io = {
    stdin,
    stdout,
    stderr,
    env: {},
    interrupts: new Interrupts(() => {}),
    untilStopped: () => new Promise<void>(() => {}),
  };
  const running = main(["chat", "--base-url", hub().url, "-m", MODEL], io);
  expect(await poll(() => out === "> ")).toBe(true);
  stdin.write("Hi\n");
  expect(await poll(() => out === `> ${ANSWER}\n> `)).toBe(true);
  stdin.end();
  expect(await running).toBe(0);

  out = "";
  const first = main(["chat", "--base-url", hub().url, "-m", MODEL, "-i", "Hello"], {
    ...io,
    stdin: Object.assign(new PassThrough(), { isTTY: false }),
  });
  expect(await poll(() => out === `${ANSWER}\n> `)).toBe(true);
  io.interrupts.fire();
  expect(await first).toBe(130);
  expect(chats().at(-1)?.body).toMatchObject({ messages: [{ role: "user", content: "Hello" }] });
});
