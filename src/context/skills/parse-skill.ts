import { parse as parseYaml } from "yaml";
import { z } from "zod";

/** One Agent Skill as the catalog lists it. */
export interface Skill {
  name: string;
  description: string;
  /** Absolute path of SKILL.md (the model reads it with its own file tool). */
  path: string;
  /** The skill folder (relative references in SKILL.md resolve against it). */
  directory: string;
  /** SKILL.md without its front matter. */
  body: string;
  license?: string;
  compatibility?: string;
  metadata?: Record<string, string>;
  allowedTools?: string;
}

const NAME = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;

/** The agentskills.io front matter: six known keys; unknown keys are tolerated. */
const FrontMatter = z.looseObject({
  name: z
    .string()
    .min(1)
    .max(64)
    .regex(NAME, "use lowercase letters, digits and single hyphens, not at the start or end"),
  description: z.string().trim().min(1, "must not be empty").max(1024, "must be at most 1024 characters"),
  license: z.string().optional(),
  compatibility: z.string().max(500, "must be at most 500 characters").optional(),
  metadata: z.record(z.string(), z.coerce.string()).optional(),
  "allowed-tools": z.string().optional(),
});

export type ParsedSkill = { ok: true; skill: Skill } | { ok: false; problem: string };

/** Parses and validates one SKILL.md; `folder` is the name of its directory. */
export function parseSkill(options: {
  text: string;
  path: string;
  directory: string;
  folder: string;
}): ParsedSkill {
  const match = /^---\r?\n([\s\S]*?)\r?\n---[ \t]*(?:\r?\n|$)/.exec(options.text);
  if (!match) return { ok: false, problem: "no YAML front matter (--- ... ---) at the top" };
  let data: unknown;
  try {
    data = parseYaml(match[1]!);
  } catch (error) {
    return {
      ok: false,
      problem: `front matter is not valid YAML: ${(error as Error).message.split("\n")[0]}`,
    };
  }
  const parsed = FrontMatter.safeParse(data ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    return { ok: false, problem: `\`${issue.path.join(".") || "front matter"}\`: ${issue.message}` };
  }
  const front = parsed.data;
  if (front.name !== options.folder) {
    return { ok: false, problem: `name \`${front.name}\` does not match its folder \`${options.folder}\`` };
  }
  return {
    ok: true,
    skill: {
      name: front.name,
      description: front.description,
      path: options.path,
      directory: options.directory,
      body: options.text.slice(match[0].length),
      license: front.license,
      compatibility: front.compatibility,
      metadata: front.metadata,
      allowedTools: front["allowed-tools"],
    },
  };
}
