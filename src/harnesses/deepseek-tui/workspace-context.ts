import { readdirSync, statSync } from "node:fs";
import path from "node:path";
import { generatedInstructions } from "./generated-instructions.js";

/** The names CodeWhale leaves out of its workspace views. */
const SKIPPED = new Set([".codewhale", ".git", "target"]);
const README = ["README.md", "readme.md", "README"];
const INSTRUCTIONS = ["AGENTS.md", "CLAUDE.md"];

/** Paths two levels deep, relative and sorted (links to directories not entered). */
function workspaceEntries(cwd: string): string[] {
  const out: string[] = [];
  const visit = (dir: string, depth: number) => {
    if (depth === 0) return;
    let entries: import("node:fs").Dirent[];
    try {
      entries = readdirSync(dir, { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (SKIPPED.has(entry.name)) continue;
      const abs = path.join(dir, entry.name);
      out.push(path.relative(cwd, abs));
      if (entry.isDirectory()) visit(abs, depth - 1);
    }
  };
  visit(cwd, 2);
  return out.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));
}

function firstReadme(cwd: string): string | undefined {
  return README.find((name) => isFile(path.join(cwd, name)));
}

function isFile(file: string): boolean {
  try {
    return statSync(file).isFile();
  } catch {
    return false;
  }
}

/** The first of `names` found from `cwd` upward, by name order then depth (CodeWhale's lookup). */
function nearest(cwd: string, names: string[]): string | undefined {
  for (const name of names)
    for (let dir = cwd; ; dir = path.dirname(dir)) {
      if (isFile(path.join(dir, name))) return path.join(dir, name);
      if (path.dirname(dir) === dir) break;
    }
  return undefined;
}

function isDir(file: string): boolean {
  try {
    return statSync(file).isDirectory();
  } catch {
    return false;
  }
}

/**
 * `<project_instructions>`: the session's AGENTS.md text (our discovery: AGENTS.md, else CLAUDE.md,
 * root to leaf), named by the nearest of those files from `cwd` upward; without any, the project
 * tree CodeWhale would generate (CodeWhale also writes that file into the workspace; we do not).
 * CodeWhale's own `.codewhale/instructions.md` and `.deepseek/instructions.md` are not read:
 * a harness reads file content only through the tools' file-system port.
 */
export function projectInstructions(cwd: string, instructions: string): string {
  if (instructions.trim()) {
    const source = nearest(cwd, INSTRUCTIONS) ?? path.join(cwd, "AGENTS.md");
    return `<project_instructions source="${source}">\n${instructions}\n</project_instructions>`;
  }
  const generated = generatedInstructions(cwd);
  return `<project_instructions source="${path.join(cwd, ".codewhale/instructions.md")}">\n${generated}\n</project_instructions>`;
}

/**
 * The `<turn_meta>` block CodeWhale puts before a new user message: the date and the repository
 * working set (README, then up to eight paths, the ones the message names first).
 */
export function turnMeta(options: { cwd: string; date: string; userText: string }): string {
  const { cwd } = options;
  const lines = [
    "<turn_meta>",
    `Current local date: ${options.date}`,
    "## Repo Working Set",
    `Workspace: ${cwd}`,
  ];
  const readme = firstReadme(cwd);
  if (readme) lines.push(`Key files: ${readme}`);
  const entries = workspaceEntries(cwd).filter((e) => e !== "README.md");
  const mentioned = entries.filter((e) => options.userText.includes(e));
  const active = [...new Set([...mentioned, ...entries])].slice(0, 8);
  if (active.length > 0) {
    lines.push("Active paths (prioritize these):");
    for (const entry of active)
      lines.push(`- ${entry} (${isDir(path.join(cwd, entry)) ? "directory" : "file"})`);
  }
  lines.push(
    "When in doubt, use tools to verify and keep changes focused on the working set.",
    "</turn_meta>",
  );
  return lines.join("\n");
}
