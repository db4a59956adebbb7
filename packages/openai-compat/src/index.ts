export { answerChat, type ChatRequest } from "./answer";
export { answerResponses } from "./responses";
export { createHfFetch, type HfFetchOptions } from "./fetch";
export { toOpenAIError, type OpenAIErrorBody } from "./protocol";
export { createProxy, type ProxyOptions, type ProxyServer, startProxy } from "./proxy";
export type { TargetKind } from "./target";
export type { LogFormat, LogSink, LogStream, RequestReport } from "./report";
export { type RedisHealthOptions, type RedisHealthStore, redisHealthStore } from "./redisHealth";
export type { ProxyHealthOptions } from "./proxyHealth";
