/**
 * Novita under the router (`/novita/...`): its OpenAI-compatible chat route, its async task API (`/v3/async/{model}`,
 * `task-result`) and MiniMax's video generation (`/v3/minimax/v2/...`). A prompt containing "fail" makes a task that fails.
 */
import { isRecord, jsonResponse } from "../http.js";
import { chatCompletions } from "./openaiCompatible.js";
import type { MockProvider } from "./route.js";

type Body = Record<string, unknown>;

/** Novita's error body. */
const refusal = (status: number, reason: string, message: string): Response =>
  jsonResponse(status, { code: status, reason, message, metadata: {} });

const taskIdFor = (kind: string, prompt: string): string =>
  `mock-novita-${kind}${/fail/i.test(prompt) ? "-fail" : ""}-${prompt.length}`;

/** `POST /novita/v3/async/{model}`: `{prompt, ...}` → `{task_id}`. */
function asyncTask(body: Body): Response {
  if (typeof body.prompt !== "string" || body.prompt === "")
    return refusal(400, "INVALID_REQUEST_BODY", "prompt is required");
  return jsonResponse(200, { task_id: taskIdFor("t2v", body.prompt) });
}

/** `POST /novita/v3/minimax/v2/video_generation`: `{model: "MiniMax-H3", content: [{type: "text"}, {type: "image_url"}?], ...}` → `{task_id}`. */
function miniMax(body: Body): Response {
  if (body.model !== "MiniMax-H3") return refusal(400, "INVALID_MODEL", `unsupported model ${String(body.model)}`);
  const content = Array.isArray(body.content) ? body.content.filter(isRecord) : [];
  const text = content.find((c) => c.type === "text")?.text;
  if (typeof text !== "string" || text.trim() === "")
    return refusal(400, "INVALID_REQUEST_BODY", "content must hold a text item");
  const image = content.find((c) => c.type === "image_url");
  const url = isRecord(image?.image_url) ? image.image_url.url : undefined;
  if (image && (typeof url !== "string" || !/^(data:image\/[^;]+;base64,|https?:\/\/)/.test(url)))
    return refusal(400, "INVALID_REQUEST_BODY", "image_url.url must be a data URL or an http(s) URL");
  return jsonResponse(200, { task_id: taskIdFor(image ? "h3-i2v" : "h3-t2v", text) });
}

/** `GET /novita/v3/async/task-result?task_id=…` and `GET /novita/v3/minimax/v2/query/video_generation/{id}`: the task done (or failed), its video served under `/files/`. */
function results(request: Request, path: string): Response | undefined {
  if (request.method !== "GET") return undefined;
  const url = new URL(request.url);
  if (path === "/novita/v3/async/task-result") {
    const id = url.searchParams.get("task_id");
    if (!id) return refusal(400, "INVALID_REQUEST_PARAMS", "task_id is required");
    const failed = id.includes("-fail");
    const task = {
      task_id: id,
      task_type: "TXT_TO_VIDEO",
      status: failed ? "TASK_STATUS_FAILED" : "TASK_STATUS_SUCCEED",
      reason: failed ? "mock failure" : "",
      progress_percent: 100,
    };
    return jsonResponse(200, {
      task,
      videos: failed ? [] : [{ video_url: `${url.origin}/files/${id}.mp4`, video_url_ttl: "3600", video_type: "mp4" }],
    });
  }
  const id = /^\/novita\/v3\/minimax\/v2\/query\/video_generation\/([^/]+)$/.exec(path)?.[1];
  if (id === undefined) return undefined;
  const task = id.includes("-fail")
    ? { task_id: id, status: "failed", error: { message: "mock failure" } }
    : { task_id: id, status: "succeeded", content: { url: `${url.origin}/files/${id}.mp4` } };
  return jsonResponse(200, { task });
}

export const NOVITA: MockProvider = {
  routes: [
    {
      pattern: /^\/novita\/v3\/openai\/chat\/completions\/?$/,
      serve: (body) => chatCompletions(body, "mock-novita", "messages is required"),
    },
    { pattern: /^\/novita\/v3\/minimax\/v2\/video_generation\/?$/, serve: miniMax },
    {
      pattern: /^\/novita\/v3\/async\/(?!task-result)[^?]+$/,
      serve: asyncTask,
      model: (path) => path.slice("/novita/v3/async/".length),
    },
  ],
  gets: [results],
  mappings: {
    "hfkit/text-generation": { novita: { providerId: "hfkit-novita/llama", task: "text-generation", status: "live" } },
    "hfkit/text-to-video": { novita: { providerId: "hfkit-novita/wan-t2v", task: "text-to-video", status: "live" } },
    "hfkit/image-text-to-video": { novita: { providerId: "MiniMax-H3", task: "image-text-to-video", status: "live" } },
    "hfkit/image-text-to-video-other": {
      novita: { providerId: "hfkit-novita/other-i2v", task: "image-text-to-video", status: "live" },
    },
  },
};
