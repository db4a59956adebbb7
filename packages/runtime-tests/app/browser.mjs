// A web page: window.runApp(hubUrl) runs the app from the page's own origin (so every call is cross-origin).
import * as sdk from "@hfkit/inference";
import { runApp, runtimeName } from "./scenarios.mjs";

window.runApp = async (hubUrl) => ({ runtime: runtimeName(), ...(await runApp(sdk, hubUrl)) });
