import { chatCompletion } from "./tasks/chatCompletion";
import { chatCompletionStream } from "./tasks/chatCompletionStream";
import type { ChatCompletionArgs, ChatCompletionOutput, ChatCompletionStreamOutput, Options } from "./types";

/**
 * The client. Same names as `@huggingface/inference`: existing code only changes its import line.
 * Constructor options are defaults; each call's options override them.
 */
export class InferenceClient {
  private readonly accessToken: string;
  private readonly defaultOptions: Options;

  constructor(accessToken = "", defaultOptions: Options = {}) {
    this.accessToken = accessToken;
    this.defaultOptions = defaultOptions;
  }

  /** A client bound to a dedicated endpoint (TGI or any OpenAI-compatible server). */
  endpoint(endpointUrl: string): InferenceClient {
    return new InferenceClient(this.accessToken, { ...this.defaultOptions, endpointUrl });
  }

  chatCompletion(args: ChatCompletionArgs, options?: Options): Promise<ChatCompletionOutput> {
    return chatCompletion(this.args(args), this.options(options));
  }

  chatCompletionStream(
    args: ChatCompletionArgs,
    options?: Options,
  ): AsyncGenerator<ChatCompletionStreamOutput, undefined, unknown> {
    return chatCompletionStream(this.args(args), this.options(options));
  }

  private args<A extends { accessToken?: string }>(args: A): A {
    return args && args.accessToken === undefined && this.accessToken ? { ...args, accessToken: this.accessToken } : args;
  }

  private options(options: Options | undefined): Options {
    return options ? { ...this.defaultOptions, ...options } : this.defaultOptions;
  }
}

/** The older name of `InferenceClient`. */
export class HfInference extends InferenceClient {}

/** A client bound to one endpoint from the start (the `@huggingface/inference` class). */
export class InferenceClientEndpoint extends InferenceClient {
  constructor(endpointUrl: string, accessToken = "", defaultOptions: Options = {}) {
    super(accessToken, { ...defaultOptions, endpointUrl });
  }
}

/** The older name of `InferenceClientEndpoint`. */
export class HfInferenceEndpoint extends InferenceClientEndpoint {}
