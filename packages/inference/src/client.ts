import { TaskClient } from "./api/clientTasks";
import { chatCompletion } from "./tasks/chatCompletion";
import { chatCompletionStream } from "./tasks/chatCompletionStream";
import { conversational, responses, responsesStream, textGeneration, textGenerationStream } from "./tasks/lazy";
import { listModels } from "./tasks/listModels";
import { runTools, runToolsStream } from "./tasks/runTools";
import type {
  ChatCompletionArgs,
  ChatCompletionOutput,
  ChatCompletionStreamOutput,
  ConversationalArgs,
  ConversationalOutput,
  ListModelsOptions,
  Options,
  ResponsesArgs,
  ResponsesOutput,
  ResponsesStreamEvent,
  RouterModel,
  RunToolsArgs,
  SchemaLike,
  RunToolsOptions,
  TextGenerationArgs,
  TextGenerationCallArgs,
  TextGenerationOutput,
  TextGenerationStreamOutput,
  ToolRun,
  ToolRunEvent,
} from "./types";

/**
 * The client. Same names as `@huggingface/inference`: existing code only changes its import line.
 * Constructor options are defaults; each call's options override them. The methods of the other tasks
 * (`textToImage`, `featureExtraction`, ...) are those of the standalone functions of the same names.
 */
export class InferenceClient extends TaskClient {
  /**
   * `accessToken`: a Hugging Face token (`hf_...`); left out, `HF_TOKEN` (then `HUGGING_FACE_HUB_TOKEN`) is
   * read from the environment at each call where the runtime has one (never in a browser); `""` (or white
   * space) is no token: none is sent, the environment's neither. `defaultOptions` apply to every call.
   */
  constructor(accessToken?: string, defaultOptions: Options = {}) {
    super(accessToken, defaultOptions);
  }

  /** A client bound to a dedicated endpoint (TGI or any OpenAI-compatible server). */
  endpoint(endpointUrl: string): InferenceClient {
    return new InferenceClient(this.accessToken, { ...this.defaultOptions, endpointUrl });
  }

  /** One chat answer, not streamed: see {@link chatCompletion}. */
  chatCompletion<T = unknown>(args: ChatCompletionArgs<T>, options?: Options): Promise<ChatCompletionOutput<T>> {
    return chatCompletion<T>(this.args(args), this.options(options));
  }

  /** A chat answer streamed as chunks, for `for await`: see {@link chatCompletionStream}. */
  chatCompletionStream<T = unknown>(
    args: ChatCompletionArgs<T>,
    options?: Options,
  ): AsyncGenerator<ChatCompletionStreamOutput<T>, undefined, unknown> {
    return chatCompletionStream<T>(this.args(args), this.options(options));
  }

  /** Text continued by the model: see {@link textGeneration}. */
  textGeneration(args: TextGenerationCallArgs, options?: Options): Promise<TextGenerationOutput> {
    return textGeneration(this.args(args), this.options(options));
  }

  /** Text continued by the model, streamed token by token: see {@link textGenerationStream}. */
  textGenerationStream(
    args: TextGenerationArgs,
    options?: Options,
  ): AsyncGenerator<TextGenerationStreamOutput, undefined, unknown> {
    return textGenerationStream(this.args(args), this.options(options));
  }

  /** The retired "conversational" task, answered by a chat completion. */
  conversational(args: ConversationalArgs, options?: Options): Promise<ConversationalOutput> {
    return conversational(this.args(args), this.options(options));
  }

  /** One response of the OpenAI Responses API: see {@link responses}. */
  responses(args: ResponsesArgs, options?: Options): Promise<ResponsesOutput> {
    return responses(this.args(args), this.options(options));
  }

  /** A Responses API answer streamed as its events: see {@link responsesStream}. */
  responsesStream(args: ResponsesArgs, options?: Options): AsyncGenerator<ResponsesStreamEvent, undefined, unknown> {
    return responsesStream(this.args(args), this.options(options));
  }

  /** The models the HF router serves, with each provider's status, prices and capabilities: see {@link listModels}. */
  listModels(options?: ListModelsOptions): Promise<readonly RouterModel[]> {
    return listModels({ ...this.defaultOptions, ...options, accessToken: options?.accessToken ?? this.accessToken });
  }

  /** A tool loop, with the client's token and options: see {@link runTools}. */
  runTools<const S extends readonly SchemaLike[]>(args: RunToolsArgs<S>, options?: RunToolsOptions): Promise<ToolRun> {
    return runTools<S>(this.args(args), this.options(options));
  }

  /** A tool loop streamed as events, with the client's token and options: see {@link runToolsStream}. */
  runToolsStream<const S extends readonly SchemaLike[]>(
    args: RunToolsArgs<S>,
    options?: RunToolsOptions,
  ): AsyncGenerator<ToolRunEvent, ToolRun, unknown> {
    return runToolsStream<S>(this.args(args), this.options(options));
  }
}

/** The older name of `InferenceClient`. */
export class HfInference extends InferenceClient {}

/**
 * `@huggingface/inference`'s `InferenceClientEndpoint`: `(accessToken?, options?)` with the endpoint in
 * `options.endpointUrl`, as there. The older hfkit form `(endpointUrl, accessToken?, options?)` is still
 * taken: a first argument that is an http(s) URL is the endpoint (a token never is one).
 */
export class InferenceClientEndpoint extends InferenceClient {
  /** `@huggingface/inference`'s form: a token and the options, `endpointUrl` among them. */
  constructor(accessToken?: string, defaultOptions?: Options);
  /** The older hfkit form: the endpoint every call goes to, then as {@link InferenceClient}'s constructor. */
  constructor(endpointUrl: string, accessToken?: string, defaultOptions?: Options);
  constructor(first?: string, second?: string | Options, third: Options = {}) {
    if (first !== undefined && /^https?:\/\//i.test(first))
      super(typeof second === "string" ? second : undefined, { ...third, endpointUrl: first });
    else super(first, typeof second === "object" ? second : third);
  }
}

/** The older name of `InferenceClientEndpoint`. */
export class HfInferenceEndpoint extends InferenceClientEndpoint {}
