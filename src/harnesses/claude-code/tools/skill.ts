import path from "node:path";
import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { toolUseError } from "../../shared/claude-code-core/format.js";
import { skillSchema } from "../../shared/claude-code-core/tool-schemas.js";
import type { HarnessContext } from "../../types.js";
import description from "./skill.md";

const Args = z.looseObject({ skill: z.string().min(1), args: z.string().nullish() });
type Args = z.infer<typeof Args>;

/**
 * Claude Code `Skill`: loads a skill's SKILL.md into the conversation. Offered only when the
 * session has skills; the catalog itself is listed in the opening reminder, so the schema names
 * no skills (as 2.1.44's has no enum).
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
      if (!skill) return { output: toolUseError(`Unknown skill: ${args.skill}`), isError: true };
      const text = await ctx.fs.readText(skill.path);
      const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*\r?\n/, "").trim();
      const request = args.args ? `\n\nARGUMENTS: ${args.args}` : "";
      return {
        output: `Launching skill: ${skill.name}\n\nBase directory for this skill: ${path.dirname(skill.path)}\n\n${body}${request}`,
      };
    },
  };
}
