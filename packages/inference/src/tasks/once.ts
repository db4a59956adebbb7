/** `importer`'s module, loaded once: every call shares the one load, and a failed load is tried again on the next call. */
export function once<M>(importer: () => Promise<M>): () => Promise<M> {
  let loading: Promise<M> | undefined;
  return () =>
    (loading ??= importer().catch((error: unknown) => {
      loading = undefined;
      throw error;
    }));
}
