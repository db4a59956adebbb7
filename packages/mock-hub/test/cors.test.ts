import { describe, expect, it } from "vitest";
import { QUESTION, chatUrl, postJson, streamChat, useHub } from "./helpers.js";

const hub = useHub();

describe("CORS and request ids", () => {
  it("answers a preflight: 204, the origin echoed, the asked headers allowed, a max-age", async () => {
    const response = await fetch(chatUrl(hub(), "hfkit/tgi-3.2"), {
      method: "OPTIONS",
      headers: {
        origin: "http://localhost:5173",
        "access-control-request-method": "POST",
        "access-control-request-headers": "authorization, content-type, x-wait-for-model",
      },
    });
    expect(response.status).toBe(204);
    expect(response.headers.get("access-control-allow-origin")).toBe("http://localhost:5173");
    expect(response.headers.get("access-control-allow-methods")).toContain("POST");
    expect(response.headers.get("access-control-allow-headers")).toBe("authorization, content-type, x-wait-for-model");
    expect(Number(response.headers.get("access-control-max-age"))).toBeGreaterThan(0);
    expect(response.headers.get("x-request-id")).toBe("mock-1");
  });

  it("every answer, errors included, carries allow-origin, exposed headers and x-request-id", async () => {
    hub().inject({ type: "loading" }, { model: "hfkit/tgi-2.2" });
    const responses = [
      await streamChat(hub(), "hfkit/tgi-3.2"),
      await postJson(chatUrl(hub(), "hfkit/tgi-3.2"), { messages: QUESTION, top_p: 0 }),
      await postJson(chatUrl(hub(), "hfkit/tgi-2.2"), { messages: QUESTION }),
      await fetch(`${hub().url}/nowhere`),
    ];
    expect(responses.map((response) => response.status)).toEqual([200, 422, 503, 404]);
    responses.forEach((response, i) => {
      expect(response.headers.get("access-control-allow-origin")).toBe("*");
      expect(response.headers.get("access-control-expose-headers")).toContain("x-request-id");
      expect(response.headers.get("x-request-id")).toBe(`mock-${i + 1}`);
    });
    await Promise.all(responses.map((response) => response.arrayBuffer()));
  });

  it("echoes the Origin of a simple request", async () => {
    const response = await postJson(
      chatUrl(hub(), "hfkit/tgi-3.2"),
      { messages: QUESTION },
      { origin: "https://app.example" },
    );
    expect(response.headers.get("access-control-allow-origin")).toBe("https://app.example");
    await response.arrayBuffer();
  });
});
