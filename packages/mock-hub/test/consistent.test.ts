/**
 * The hub does not contradict itself: the Hub's model API knows every id chat answers (so `hfkit snippet` works on
 * what chat works on), in each mode; and strict mode refuses the tokens the router refuses.
 */
import { describe, expect, it } from "vitest";
import { postJson, QUESTION, useHub } from "./helpers.js";

const TOKEN = { authorization: "Bearer hf_consistent" };
const IDS = [
  "meta-llama/Llama-3.1-8B-Instruct",
  "acme/unknown",
  "hfkit/tgi-3.2",
  "hfkit/router-multi",
  "acme/has space",
  "acme/a..b",
];

async function statuses(url: string, id: string): Promise<{ chat: number; card: number }> {
  const chat = await postJson(`${url}/v1/chat/completions`, { model: id, messages: QUESTION }, TOKEN);
  const card = await fetch(`${url}/api/models/${encodeURIComponent(id).replace("%2F", "/")}`, { headers: TOKEN });
  return { chat: chat.status, card: card.status };
}

describe("lenient mode (the default): every id chat answers has a card", () => {
  const hub = useHub();

  it("the Hub's model API answers 200 exactly for the ids the router's chat answers", async () => {
    for (const id of IDS) {
      const { chat, card } = await statuses(hub().url, id);
      expect(card === 200, `${id}: chat ${chat}, card ${card}`).toBe(chat === 200);
    }
  });

  it("an id it does not list: the card of the model that answers its chat, a conversational text-generation model", async () => {
    const res = await fetch(`${hub().url}/api/models/meta-llama/Llama-3.1-8B-Instruct`);
    expect(res.status).toBe(200);
    const card = (await res.json()) as Record<string, unknown>;
    expect(card).toMatchObject({
      id: "meta-llama/Llama-3.1-8B-Instruct",
      author: "meta-llama",
      pipeline_tag: "text-generation",
    });
    expect(card.tags).toEqual(expect.arrayContaining(["text-generation", "conversational"]));
  });
});

describe("strict mode: the same agreement, and the router's 401 for a token that is not an HF one", () => {
  const hub = useHub({ strict: true });

  it("the Hub's model API answers 200 exactly for the ids the router's chat answers", async () => {
    for (const id of IDS) {
      const { chat, card } = await statuses(hub().url, id);
      expect(card === 200, `${id}: chat ${chat}, card ${card}`).toBe(chat === 200);
    }
  });

  it("refuses a token that is not hf_… as the router does; an hf_ token is taken", async () => {
    const chat = (authorization: string) =>
      postJson(`${hub().url}/v1/chat/completions`, { model: "hfkit/tgi-3.2", messages: QUESTION }, { authorization });
    for (const authorization of [
      "Bearer not-a-token",
      "Bearer sk-together-key",
      "Basic aGZfdXNlcjpwYXNz",
      "Bearer HF_upper",
    ]) {
      const res = await chat(authorization);
      expect([res.status, await res.json()], authorization).toEqual([401, { error: "Invalid username or password." }]);
    }
    expect((await chat("Bearer hf_mock_hub_token")).status).toBe(200);
    expect((await chat("bearer hf_lower_scheme")).status).toBe(200);
  });

  it("the Hub's model API refuses such a token as it refuses an hf_bad… one; without a token it answers", async () => {
    const card = (headers: Record<string, string>) => fetch(`${hub().url}/api/models/hfkit/tgi-3.2`, { headers });
    const refused = await card({ authorization: "Bearer not-a-token" });
    expect([refused.status, await refused.json()]).toEqual([
      401,
      { error: "Invalid credentials in Authorization header" },
    ]);
    expect((await card({})).status).toBe(200);
    expect((await card(TOKEN)).status).toBe(200);
  });
});
