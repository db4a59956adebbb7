/**
 * OpenTelemetry for hfkit calls: `withTelemetry()` turns each call's `observe` events into a GenAI span (with its
 * HTTP attempts, retries and failover moves) and the GenAI client metrics.
 */
export { withTelemetry, type Telemetry, type TelemetryOptions } from "./telemetry";
