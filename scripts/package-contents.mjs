// What a user of each published package gets from the registry: its packed tarball must hold a LICENSE
// (the root one, verbatim) and a README whose links all work from npmjs.com (absolute URLs or #anchors:
// a relative link there points nowhere), and its package.json must say where its home, bugs and sources are.
import { execFileSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";

const REQUIRED_FILES = ["LICENSE", "README.md", "package.json"];

/** Link targets in Markdown: `[text](target)`, `![alt](target)`, `[ref]: target`, and HTML `href`/`src`. */
export function linkTargets(markdown) {
  const withoutCode = markdown.replace(/^```[\s\S]*?^```$/gm, "").replace(/`[^`\n]*`/g, "");
  const targets = [];
  for (const match of withoutCode.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)) targets.push(match[1]);
  for (const match of withoutCode.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)/gm)) targets.push(match[1]);
  for (const match of withoutCode.matchAll(/\b(?:href|src)\s*=\s*["']([^"']+)["']/g)) targets.push(match[1]);
  return targets;
}

/** A link that works wherever the README is shown: an absolute URL, a mail address or an anchor of the page. */
export function isAbsoluteLink(target) {
  return /^(https?:|mailto:)/i.test(target) || target.startsWith("#");
}

/** The problems of one package directory (already built), as sentences; none when it is complete. */
export function contentProblems(dir, rootLicense) {
  const problems = [];
  const manifest = JSON.parse(readFileSync(join(dir, "package.json"), "utf8"));
  for (const field of ["homepage", "bugs", "repository"]) {
    const value = manifest[field];
    const url = typeof value === "string" ? value : value?.url;
    if (typeof url !== "string" || !/^(https:|git\+https:)/.test(url))
      problems.push(`package.json has no ${field} URL`);
  }
  if (
    manifest.repository &&
    typeof manifest.repository === "object" &&
    manifest.repository.directory !== dir.replace(/\\/g, "/")
  ) {
    problems.push(
      `package.json repository.directory is ${JSON.stringify(manifest.repository.directory)}, not ${JSON.stringify(dir)}`,
    );
  }
  // pnpm pack adds the workspace's LICENSE to a package without one; npm pack (and any other packer) does not.
  if (!existsSync(join(dir, "LICENSE")))
    problems.push("the package directory has no LICENSE (only pnpm would add one when packing)");
  else if (readFileSync(join(dir, "LICENSE"), "utf8") !== rootLicense)
    problems.push("its LICENSE differs from the repository's LICENSE");
  if (Array.isArray(manifest.files) && !manifest.files.includes("LICENSE"))
    problems.push('package.json "files" does not list LICENSE');
  const unpacked = mkdtempSync(join(tmpdir(), "hfkit-pack-check-"));
  try {
    execFileSync("pnpm", ["pack", "--pack-destination", unpacked], { cwd: dir, stdio: "pipe" });
    const tarball = readdirSync(unpacked).find((name) => name.endsWith(".tgz"));
    execFileSync("tar", ["-xzf", join(unpacked, tarball), "-C", unpacked]);
    const packed = readdirSync(join(unpacked, "package"));
    for (const file of REQUIRED_FILES) if (!packed.includes(file)) problems.push(`the tarball has no ${file}`);
    if (packed.includes("LICENSE") && readFileSync(join(unpacked, "package/LICENSE"), "utf8") !== rootLicense) {
      problems.push("the tarball's LICENSE differs from the repository's LICENSE");
    }
    if (packed.includes("README.md")) {
      const relative = linkTargets(readFileSync(join(unpacked, "package/README.md"), "utf8")).filter(
        (target) => !isAbsoluteLink(target),
      );
      for (const target of relative)
        problems.push(
          `README.md links to ${target}: relative, so broken on the registry (use https://github.com/hfkit/hfkit/blob/main/…)`,
        );
    }
  } finally {
    rmSync(unpacked, { recursive: true, force: true });
  }
  return problems;
}
