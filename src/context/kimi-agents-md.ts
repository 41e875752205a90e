import { readFileSync, statSync } from "node:fs";
import path from "node:path";
import { findProjectRoot } from "./project-root.js";

const MAX_BYTES = 32 * 1024;

/**
 * Kimi CLI 1.49.0's `load_agents_md` (`soul/agent.py`), for the kimi-cli harness, which puts the
 * files in its system prompt with their paths: from the project root (the nearest repository,
 * else the working directory) down to the working directory, each
 * directory's `.kimi/AGENTS.md` and then `AGENTS.md` (or else `agents.md`), each headed by
 * `<!-- From: path -->`, joined by blank lines; 32 KiB in all, given to the deepest files first
 * so a shallower file is the one cut. Synchronous: rendered once per session.
 */
export function loadKimiAgentsMd(cwd: string): string {
  const found: Array<{ file: string; content: string }> = [];
  for (const dir of rootToLeaf(cwd)) {
    const candidates = [path.join(dir, ".kimi", "AGENTS.md")];
    const plain = [path.join(dir, "AGENTS.md"), path.join(dir, "agents.md")].find(isFile);
    if (plain) candidates.push(plain);
    for (const file of candidates.filter(isFile)) {
      const content = readFileSync(file, "utf8").trim();
      if (content) found.push({ file, content });
    }
  }
  let remaining = MAX_BYTES;
  const budgeted = found.map(() => "");
  for (let i = found.length - 1; i >= 0; i--) {
    const { file, content } = found[i]!;
    remaining -= Buffer.byteLength(`<!-- From: ${file} -->\n`) + (i < found.length - 1 ? 2 : 0);
    if (remaining <= 0) {
      remaining = 0;
      continue;
    }
    const bytes = Buffer.from(content);
    // Cut at a byte count; a character split there is dropped, as `decode(errors="ignore")` does.
    const kept =
      bytes.length > remaining
        ? new TextDecoder()
            .decode(bytes.subarray(0, remaining))
            .replace(/\uFFFD+$/, "")
            .trim()
        : content;
    remaining -= Buffer.byteLength(kept);
    budgeted[i] = kept;
  }
  return found
    .flatMap(({ file }, i) => (budgeted[i] ? [`<!-- From: ${file} -->\n${budgeted[i]}`] : []))
    .join("\n\n");
}

function rootToLeaf(cwd: string): string[] {
  const root = findProjectRoot(cwd);
  const dirs: string[] = [];
  for (let dir = cwd; ; dir = path.dirname(dir)) {
    dirs.unshift(dir);
    if (dir === root || path.dirname(dir) === dir) break;
  }
  return dirs;
}

function isFile(file: string): boolean {
  return statSync(file, { throwIfNoEntry: false })?.isFile() ?? false;
}
