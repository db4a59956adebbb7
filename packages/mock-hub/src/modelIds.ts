/**
 * Which model ids can exist on the Hub: `name` or `org/name`, each part letters, digits, `-`, `_` and `.`,
 * neither starting nor ending with `-` or `.`, no `--` nor `..`, 96 characters at most (the Hub's repo id
 * rules, as `huggingface_hub`'s `validate_repo_id` states them). Any other id fails in production.
 */

const PART = /^[A-Za-z0-9_](?:[A-Za-z0-9_.-]*[A-Za-z0-9_])?$/;
const MAX_LENGTH = 96;

export function isWellFormedId(id: string): boolean {
  if (id.length === 0 || id.length > MAX_LENGTH || id.includes("--") || id.includes("..")) return false;
  const parts = id.split("/");
  return parts.length <= 2 && parts.every((part) => PART.test(part));
}

/** The model a router request names: the body's `model` without its `:provider` or `:policy` suffix. */
export function bareModel(model: string): string {
  const colon = model.indexOf(":");
  return colon < 0 ? model : model.slice(0, colon);
}
