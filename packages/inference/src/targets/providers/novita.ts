/**
 * Novita (`https://router.huggingface.co/novita/...`): text-generation (on its chat route), text-to-video and
 * image-text-to-video (its async task APIs: submitted, polled, the video fetched), as 4.13's `Novita*Task`s.
 */
import { serverText } from "../../core/redact";
import { InferenceError, InputError } from "../../core/errors";
import { InferenceClientProviderOutputError } from "../../core/hfErrors";
import { isRecord, malformed } from "../../checks/answers";
import { base64, checkParameters, needBinary, needString } from "../../checks/inputs";
import type { JsonObject } from "../../core/json";
import type { ProviderIo, ProviderTask } from "./helper";
import { restOf } from "./helper";
import { chatTextTask } from "./openaiCompatible";

/** `POST /v3/openai/chat/completions`: the prompt as one user message; the reply's content is `generated_text`. */
export const novitaTextGeneration = /* @__PURE__ */ chatTextTask(
  "Novita text generation",
  "v3/openai/chat/completions",
);

/** The task id of a submitted task (`{task_id}`). */
function taskId(value: unknown, label: string): string {
  const id = isRecord(value) ? value.task_id : undefined;
  if (typeof id !== "string" || id === "")
    throw new InferenceClientProviderOutputError(
      `Received malformed response from Novita ${label} API: no task ID found in the response`,
    );
  return id;
}

/** Polls `url` every `everyMs` (the first poll at once unless `waitFirst`), at most `max` times, until `done` answers the video's URL (or throws); the video fetched. */
async function poll(
  io: ProviderIo,
  url: string,
  o: { everyMs: number; max: number; waitFirst: boolean; id: string },
  done: (result: unknown) => string | undefined,
): Promise<Blob> {
  for (let polls = 0; polls < o.max; polls++) {
    if (polls > 0 || o.waitFirst) await io.sleep(o.everyMs);
    const video = done(await io.json(url));
    if (video !== undefined) return io.file(video);
  }
  throw new InferenceError(`novita's task ${o.id} did not finish in ${(o.max * o.everyMs) / 1000} s (${o.max} polls)`);
}

/** `POST /v3/async/{providerId}`: `{...args, ...parameters (num_inference_steps as steps), prompt}`; `task-result` polled every 500 ms; `videos[0].video_url` fetched. */
export const novitaTextToVideo: ProviderTask = {
  path: (id) => `v3/async/${id}`,
  submits: true,
  body(args) {
    const prompt = needString(args.inputs, "inputs");
    const { num_inference_steps: steps, ...parameters } = checkParameters(args.parameters) ?? {};
    const body = { ...restOf(args), ...parameters, ...(steps === undefined ? {} : { steps }), prompt };
    return () => body;
  },
  answer(value, _options, secret, io) {
    const id = taskId(value, "text-to-video");
    const url = io.route(`v3/async/task-result?task_id=${encodeURIComponent(id)}`);
    return poll(io, url, { everyMs: 500, max: 1200, waitFirst: true, id }, (result) => {
      const status = isRecord(result) && isRecord(result.task) ? result.task.status : undefined;
      if (typeof status !== "string")
        throw malformed("Novita text-to-video", "{task: {status: string}}", result, secret);
      if (status === "TASK_STATUS_FAILED")
        throw new InferenceClientProviderOutputError("Novita text-to-video task failed");
      if (status !== "TASK_STATUS_SUCCEED") return undefined;
      const video =
        isRecord(result) && Array.isArray(result.videos) && isRecord(result.videos[0])
          ? result.videos[0].video_url
          : undefined;
      if (typeof video !== "string" || !/^https?:\/\//.test(video))
        throw malformed("Novita text-to-video", "{ videos: [{ video_url: string }] }", result, secret);
      return video;
    });
  },
};

const RATIOS = ["21:9", "16:9", "4:3", "1:1", "3:4", "9:16"] as const;
type Size = { width: number; height: number };

const isPositive = (n: unknown): n is number => typeof n === "number" && Number.isFinite(n) && n > 0;

/** `parameters.target_size`, when given: positive `width` and `height`. */
function targetSize(value: unknown): Size | undefined {
  if (value === undefined) return undefined;
  if (!isRecord(value) || !isPositive(value.width) || !isPositive(value.height))
    throw new InputError("`parameters.target_size` must be {width, height}, two numbers > 0", "parameters.target_size");
  return { width: value.width, height: value.height };
}

/** The ratio of MiniMax H3's closest to `size`'s. */
function closestRatio({ width, height }: Size): string {
  const gap = (r: string): number => Math.abs(width / height - Number(r.split(":")[0]) / Number(r.split(":")[1]));
  return RATIOS.reduce((best, r) => (gap(r) < gap(best) ? r : best));
}

/** MiniMax H3's settings as 4.13 derives them (each unless given): 4–15 s from `num_frames` at 24 fps, 768P or 2K by the short edge, the closest ratio. */
function miniMaxSettings(p: JsonObject, image: boolean): JsonObject {
  const size = targetSize(p.target_size);
  const frames = p.num_frames;
  if (frames !== undefined && !(typeof frames === "number" && Number.isFinite(frames)))
    throw new InputError("`parameters.num_frames` must be a number", "parameters.num_frames");
  const short = size ? Math.min(size.width, size.height) : 768;
  const given = (field: string, derived: unknown): unknown => (p[field] !== undefined ? p[field] : derived);
  return {
    resolution: given("resolution", Math.abs(short - 768) <= Math.abs(short - 1440) ? "768P" : "2K"),
    duration: given("duration", typeof frames === "number" ? Math.min(15, Math.max(4, Math.round(frames / 24))) : 4),
    ratio: image ? "adaptive" : given("ratio", size ? closestRatio(size) : "16:9"),
  };
}

/** The parameters made into MiniMax H3's own fields (the others 4.13 leaves out follow them). */
const MINIMAX_OWN = ["prompt", "num_frames", "target_size", "resolution", "duration", "ratio"];

/** Only `MiniMax-H3` is served (4.13's words for another, after the lookup, before any request to Novita). */
const miniMaxPath = (id: string): string => {
  if (id !== "MiniMax-H3") throw new InputError(`Unsupported Novita image-text-to-video model: ${id}`, "model");
  return "v3/minimax/v2/video_generation";
};

/**
 * `POST /v3/minimax/v2/video_generation`: `{model, content: [prompt, image as a data URL (first frame)], resolution,
 * duration, ratio, ...parameters}`; `query/video_generation/{id}` polled (at once, then every 5 s); `task.content.url` fetched.
 */
export const novitaImageTextToVideo: ProviderTask = {
  path: miniMaxPath,
  submits: true,
  body(args) {
    const p = checkParameters(args.parameters) ?? {};
    const { prompt } = p;
    const rest: JsonObject = { ...p };
    for (const own of [...MINIMAX_OWN, "guidance_scale", "negative_prompt", "num_inference_steps", "seed"])
      delete rest[own];
    if (typeof prompt !== "string" || !prompt.trim())
      throw new InputError("Novita MiniMax H3 requires a non-empty parameters.prompt.", "parameters.prompt");
    const image = args.inputs === undefined ? undefined : needBinary(args.inputs, "inputs");
    const settings = miniMaxSettings(p, image !== undefined);
    return async (model) => {
      const content: JsonObject[] = [{ type: "text", text: prompt }];
      if (image !== undefined) {
        const bytes = new Uint8Array(image instanceof Blob ? await image.arrayBuffer() : image);
        const type = (image instanceof Blob && image.type) || "image/png";
        content.push({
          type: "image_url",
          image_url: { url: `data:${type};base64,${base64(bytes)}` },
          role: "first_frame",
        });
      }
      return { ...rest, model, content, ...settings };
    };
  },
  answer(value, _options, secret, io) {
    const id = taskId(value, "image-text-to-video");
    const url = io.route(`v3/minimax/v2/query/video_generation/${encodeURIComponent(id)}`);
    return poll(io, url, { everyMs: 5000, max: 120, waitFirst: false, id }, (result) => {
      const task = isRecord(result) && isRecord(result.task) ? result.task : undefined;
      if (typeof task?.status !== "string")
        throw malformed("Novita image-text-to-video", "{task: {status: string}}", result, secret);
      if (task.status === "failed" || task.status === "cancelled") {
        const why = isRecord(task.error) && typeof task.error.message === "string" ? task.error.message : "";
        throw new InferenceClientProviderOutputError(serverText(why || `Novita task ${task.status}`, secret, 500));
      }
      if (task.status !== "succeeded") return undefined;
      const video = isRecord(task.content) ? task.content.url : undefined;
      if (typeof video !== "string" || video === "")
        throw new InferenceClientProviderOutputError("No output URL returned by Novita API");
      return video;
    });
  },
};
