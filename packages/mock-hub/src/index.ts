export { createMockHub } from "./hub.js";
export { startMockHub, type MockHub, type StartOptions } from "./server.js";
export { DEFAULT_MODEL_ID, DEFAULT_TEXT, PREDEFINED_MODELS, type PredefinedModelId } from "./models.js";
export { DEFAULT_PROVIDER_MAPPINGS } from "./providerRoutes.js";
export { isDropConnection } from "./event-stream.js";
export { faultProblem } from "./faultChecks.js";
export type {
  Backend,
  ChatRouteError,
  ConnectionFault,
  LatencyFault,
  Fault,
  FaultRule,
  FaultType,
  HandleOptions,
  InjectOptions,
  MockHubConfig,
  MockHubCore,
  ModelConfig,
  ProviderMappingEntry,
  ProxyFault,
  RecordedRequest,
  RouterFault,
  RouterProvider,
  StreamFault,
  StructuredOutputFault,
  TgiVersion,
} from "./types.js";
