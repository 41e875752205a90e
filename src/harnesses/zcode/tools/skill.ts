import path from "node:path";
import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import type { HarnessContext } from "../../types.js";
import { skillSchema } from "../tool-schemas.js";
import description from "./skill.md";

const Args = z.looseObject({ skill: z.string().min(1), args: z.string().nullish() });
type Args = z.infer<typeof Args>;

/**
 * ZCode `Skill` as upstream Open Interpreter 0.0.40 answers it: the SKILL.md body (front matter
 * dropped) in `<skill_content>` with its `# Skill:` heading and base directory lines; a name
 * the session does not have gets upstream's "not available" text. Always offered, as ZCode
 * always sends it; the skills are the session's (ZCode's own bundled plugins are not shipped).
 */
export function skillTool(skills: HarnessContext["skills"]): Tool<Args> {
  const find = (name: string) => skills.find((s) => s.name === name.replace(/^\//, ""));
  return {
    name: "Skill",
    description,
    kind: "read",
    capability: "read",
    parameters: skillSchema,
    schema: Args,
    preview: async (args) => ({ title: `Skill: ${args.skill}` }),
    access: (args) => {
      const skill = find(args.skill);
      return skill ? { type: "read", paths: [skill.path] } : { type: "none" };
    },
    async execute(args, ctx) {
      const skill = find(args.skill);
      if (!skill)
        return {
          output: `Skill \`${args.skill}\` is not available through the native ZCode harness yet.`,
          isError: true,
        };
      const text = await ctx.fs.readText(skill.path);
      const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*\r?\n/, "").trimStart();
      return {
        output: `<skill_content name="${skill.name}">\n# Skill: ${skill.name}\n${body}Base directory for this skill: ${path.dirname(skill.path)}\nRelative paths in this skill are relative to this base directory.\n</skill_content>`,
      };
    },
  };
}
