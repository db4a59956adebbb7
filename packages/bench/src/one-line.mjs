// Row 4's reference: the smallest module file Node can load from disk.
export const loaded = true;
