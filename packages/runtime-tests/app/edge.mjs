// Vercel's edge runtime: a fetch-event handler, as an edge function is written.
import * as sdk from "@hfkit/inference";
import { runApp, runtimeName } from "./scenarios.mjs";

addEventListener("fetch", (event) => {
  const hubUrl = new URL(event.request.url).searchParams.get("hub");
  event.respondWith(runApp(sdk, hubUrl).then((result) => Response.json({ runtime: runtimeName(), ...result })));
});
