import type { BaseArgs, Options } from "../types";

/** A task as a standalone function: `(args, options?)`. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type TaskFunction = (args: any, options?: any) => unknown;

/** A client's methods for the tasks in `T`: each the standalone function of the same name, the client's token and options merged in. */
export type TaskMethods<T extends Record<string, TaskFunction>> = { [K in keyof T]: T[K] };

/** What every client holds: the token and the default options, merged into each call. */
export class ClientBase {
  /** The token given to the constructor, if any. */
  protected readonly accessToken: string | undefined;
  /** The options given to the constructor: each call's own override them. */
  protected readonly defaultOptions: Options;

  /** See {@link InferenceClient}'s constructor. */
  constructor(accessToken?: string, defaultOptions: Options = {}) {
    this.accessToken = accessToken;
    this.defaultOptions = defaultOptions;
  }

  /** The call's arguments, with the client's token unless they carry their own. */
  protected args<A extends Pick<BaseArgs, "accessToken">>(args: A): A {
    return args && args.accessToken === undefined && this.accessToken !== undefined
      ? { ...args, accessToken: this.accessToken }
      : args;
  }

  /** The call's options over the client's. */
  protected options(options: Options | undefined): Options {
    return options ? { ...this.defaultOptions, ...options } : this.defaultOptions;
  }

  /**
   * A client class with one method per task of `tasks` (on its prototype, so they are inherited), each
   * calling the standalone function with the client's token and options.
   */
  static withTasks<T extends Record<string, TaskFunction>>(
    tasks: T,
  ): new (accessToken?: string, defaultOptions?: Options) => ClientBase & TaskMethods<T> {
    class TaskClient extends ClientBase {}
    for (const [name, task] of Object.entries(tasks)) {
      const method = function (this: ClientBase, args: BaseArgs, options?: Options): unknown {
        return task(this.args(args), this.options(options));
      };
      Object.defineProperty(TaskClient.prototype, name, { value: method, writable: true, configurable: true });
    }
    return TaskClient as unknown as new (accessToken?: string, defaultOptions?: Options) => ClientBase & TaskMethods<T>;
  }
}
