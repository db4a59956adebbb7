// Cloudflare Workers (workerd): GET /?hub=<hub url> runs the app and answers its result as JSON.
import * as sdk from "@hfkit/inference";
import { runApp } from "./scenarios.mjs";

export default {
  async fetch(request) {
    const hubUrl = new URL(request.url).searchParams.get("hub");
    const result = await runApp(sdk, hubUrl);
    return Response.json({ runtime: `workerd (${navigator.userAgent})`, ...result });
  },
};
