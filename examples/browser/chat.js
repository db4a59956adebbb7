// The page's script: POST /api/chat, then read OpenAI's server-sent events as they arrive and write each
// chunk's text into the page. No token in the browser: the route handler holds it.
/* global document */

/** Sends `messages` to `url` and calls `onText` with each piece of the answer; resolves with the whole text. */
export async function streamChat(url, messages, onText, signal) {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ messages }),
    signal,
  });
  if (!response.ok || !response.body) throw new Error(`${url} answered ${response.status}: ${await response.text()}`);
  const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
  let buffer = "";
  let text = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text;
    buffer += value;
    const events = buffer.split("\n\n");
    buffer = events.pop() ?? "";
    for (const event of events) {
      const data = event
        .split("\n")
        .filter((line) => line.startsWith("data:"))
        .map((line) => line.slice(5).trim())
        .join("\n");
      if (data === "[DONE]") return text;
      if (!data) continue;
      const chunk = JSON.parse(data);
      if (chunk.error) throw new Error(chunk.error.message);
      const piece = chunk.choices?.[0]?.delta?.content ?? "";
      text += piece;
      onText(piece);
    }
  }
}

const form = document.querySelector("#ask");
const answer = document.querySelector("#answer");
let inFlight;
form?.addEventListener("submit", async (event) => {
  event.preventDefault();
  inFlight?.abort(); // a new question stops the previous answer (and the server's call to the model)
  inFlight = new AbortController();
  answer.textContent = "";
  const question = document.querySelector("#question").value;
  try {
    await streamChat(
      "/api/chat",
      [{ role: "user", content: question }],
      (piece) => (answer.textContent += piece),
      inFlight.signal,
    );
  } catch (error) {
    if (error.name !== "AbortError") answer.textContent += `\n[${error.message}]`;
  }
});
