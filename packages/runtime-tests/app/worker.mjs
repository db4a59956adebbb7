// Cloudflare Workers (workerd): GET /?hub=<hub url> runs the app and answers its result as JSON;
// GET /?hub=<hub url>&relay=chat|error answers the SDK's stream itself, as toResponse makes it.
import * as sdk from "@hfkit/inference";
import { hubClient, relayResponse, runApp } from "./scenarios.mjs";

export default {
  async fetch(request) {
    const params = new URL(request.url).searchParams;
    const hubUrl = params.get("hub");
    const relay = params.get("relay");
    if (relay) return relayResponse(sdk, hubClient(sdk, hubUrl), relay);
    const result = await runApp(sdk, hubUrl);
    return Response.json({ runtime: `workerd (${navigator.userAgent})`, ...result });
  },
};
