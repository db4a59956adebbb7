// Vercel's edge runtime: a fetch-event handler, as an edge function is written. With `relay=chat|error`
// it answers the SDK's stream itself, as toResponse makes it.
import * as sdk from "@hfkit/inference";
import { hubClient, relayResponse, runApp, runtimeName } from "./scenarios.mjs";

addEventListener("fetch", (event) => {
  const params = new URL(event.request.url).searchParams;
  const hubUrl = params.get("hub");
  const relay = params.get("relay");
  if (relay) return event.respondWith(relayResponse(sdk, hubClient(sdk, hubUrl), relay));
  event.respondWith(runApp(sdk, hubUrl).then((result) => Response.json({ runtime: runtimeName(), ...result })));
});
