import { readdir, readFile, realpath } from "node:fs/promises";
import path from "node:path";
import type { Skill } from "./parse-skill.js";
import type { SkillRoot } from "./skill-roots.js";

export interface SkillCatalog {
  /** One entry per name, best-ranked copy. */
  skills: Skill[];
  /** For the user, once per session: invalid skills and shadowed copies. */
  notices: string[];
}

const MAX_DEPTH = 4;
const MAX_DIRS = 2_000;

/**
 * Discovers skills in the given roots (already in rank order). Roots and SKILL.md files are
 * de-duplicated by realpath, so symlinked vendor folders are not duplicates; a name keeps its
 * best-ranked copy and the others are reported once, unless they are byte-identical.
 */
export async function loadSkills(roots: SkillRoot[]): Promise<SkillCatalog> {
  const seenRoots = new Set<string>();
  const seenFiles = new Set<string>();
  const chosen = new Map<string, { skill: Skill; text: string }>();
  const invalid: string[] = [];
  const shadowed: string[] = [];
  for (const root of roots) {
    const real = await realpath(root.path).catch(() => undefined);
    if (!real || seenRoots.has(real)) continue;
    seenRoots.add(real);
    for (const file of await findSkillFiles(root.path)) {
      const realFile = await realpath(file).catch(() => file);
      if (seenFiles.has(realFile)) continue;
      seenFiles.add(realFile);
      const text = await readFile(file, "utf8").catch(() => undefined);
      if (text === undefined) continue;
      const directory = path.dirname(file);
      // The YAML parser is loaded with the first SKILL.md: most sessions have none, and every
      // daemon would otherwise carry it in its start-up snapshot or load it at start.
      const { parseSkill } = await import("./parse-skill.js");
      const parsed = parseSkill({ text, path: file, directory, folder: path.basename(directory) });
      if (!parsed.ok) {
        invalid.push(`${file}: ${parsed.problem}`);
        continue;
      }
      const winner = chosen.get(parsed.skill.name);
      if (!winner) chosen.set(parsed.skill.name, { skill: parsed.skill, text });
      else if (winner.text !== text) shadowed.push(`${file} (shadowed by ${winner.skill.path})`);
    }
  }
  const notices: string[] = [];
  if (invalid.length > 0) notices.push(`Skipped invalid skills:\n${invalid.map((l) => `- ${l}`).join("\n")}`);
  if (shadowed.length > 0) {
    notices.push(
      `Skills with the same name in several places (the first one is used):\n${shadowed.map((l) => `- ${l}`).join("\n")}`,
    );
  }
  return { skills: [...chosen.values()].map((c) => c.skill), notices };
}

/** SKILL.md files under a root; a folder holding SKILL.md is a skill and is not searched further. */
async function findSkillFiles(root: string): Promise<string[]> {
  const found: string[] = [];
  let visited = 0;
  const walk = async (dir: string, depth: number): Promise<void> => {
    if (depth > MAX_DEPTH || visited++ > MAX_DIRS) return;
    const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
    if (depth > 0 && entries.some((e) => e.name === "SKILL.md" && (e.isFile() || e.isSymbolicLink()))) {
      found.push(path.join(dir, "SKILL.md"));
      return;
    }
    const children = entries
      .filter(
        (e) =>
          (e.isDirectory() || e.isSymbolicLink()) && !e.name.startsWith(".") && e.name !== "node_modules",
      )
      .map((e) => e.name)
      .sort();
    for (const name of children) await walk(path.join(dir, name), depth + 1);
  };
  await walk(root, 0);
  return found;
}
