// A web page: window.runApp(hubUrl) runs the app from the page's own origin (so every call is cross-origin).
import * as sdk from "@hfkit/inference";
import { runApp, runtimeName } from "./scenarios.mjs";

// The header names the SDK hands to fetch, whatever the browser then does with them.
const headerNames = new Set();
const pageFetch = globalThis.fetch;
globalThis.fetch = (input, init) => {
  for (const name of new Headers(init?.headers).keys()) headerNames.add(name);
  return pageFetch(input, init);
};

window.runApp = async (hubUrl) => ({
  runtime: runtimeName(),
  ...(await runApp(sdk, hubUrl)),
  headerNames: [...headerNames].sort(),
});
