import { expect, it } from "vitest";
import { hfkit } from "./run";

it.each(["http://:pw_secret@127.0.0.1:6379", "127.0.0.1:6379", ""])(
  "hfkit proxy --health-redis %j that is not a redis:// URL is bad usage, never echoed, before it listens",
  async (url) => {
    const run = await hfkit(["proxy", "--target", "http://127.0.0.1:9", "--health-redis", url]);
    expect(run.code).toBe(2);
    expect(run.stderr).toMatch(/--health-redis: a redis:\/\/ or rediss:\/\/ URL/);
    expect(run.stderr).not.toContain("pw_secret");
    expect(run.stdout).toBe("");
  },
);
