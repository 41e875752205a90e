import path from "node:path";

export interface SkillRoot {
  path: string;
  scope: "project" | "user";
  /** `.agents/skills` is canonical; vendor folders are read-only compatibility roots. */
  canonical: boolean;
}

const PROJECT_LEGACY = [".claude/skills", ".codex/skills"];
const USER_LEGACY = [".codex/skills", ".claude/skills"];

/**
 * Skill roots in rank order: project before user, canonical before legacy, nearer before
 * farther. Project roots walk from each workspace root up to the project root.
 */
export function skillRoots(options: {
  cwd: string;
  projectRoot: string;
  additionalDirectories?: string[];
  userHome: string;
  interpreterHome: string;
}): SkillRoot[] {
  const projectDirs: string[] = [];
  for (const start of [options.cwd, ...(options.additionalDirectories ?? [])]) {
    for (let dir = path.resolve(start); ; dir = path.dirname(dir)) {
      projectDirs.push(dir);
      if (dir === options.projectRoot || path.dirname(dir) === dir || !isWithin(dir, options.projectRoot))
        break;
    }
  }
  const dirs = [...new Set(projectDirs)];
  return [
    ...dirs.map((dir) => ({
      path: path.join(dir, ".agents/skills"),
      scope: "project" as const,
      canonical: true,
    })),
    ...dirs.flatMap((dir) =>
      PROJECT_LEGACY.map((sub) => ({
        path: path.join(dir, sub),
        scope: "project" as const,
        canonical: false,
      })),
    ),
    { path: path.join(options.userHome, ".agents/skills"), scope: "user", canonical: true },
    ...USER_LEGACY.map((sub) => ({
      path: path.join(options.userHome, sub),
      scope: "user" as const,
      canonical: false,
    })),
    { path: path.join(options.interpreterHome, "skills"), scope: "user", canonical: false },
  ];
}

function isWithin(dir: string, root: string): boolean {
  const rel = path.relative(root, dir);
  return rel === "" || (!rel.startsWith("..") && !path.isAbsolute(rel));
}
