/** Arguments every task takes besides its own (the `@huggingface/inference` BaseArgs). */
export interface BaseArgs {
  /** A Hugging Face token (`hf_…`), sent as `Authorization: Bearer`; overrides the client's (`undefined` is as absent). */
  accessToken?: string | undefined;
  /** The model id on the Hub, e.g. `"meta-llama/Llama-3.1-8B-Instruct"`; optional on a dedicated endpoint. */
  model?: string;
  /** A dedicated endpoint for this call; overrides the `endpointUrl` option. */
  endpointUrl?: string;
  /** The inference provider for this call; overrides the `provider` option. */
  provider?: string;
}
