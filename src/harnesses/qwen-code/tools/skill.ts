import path from "node:path";
import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import type { HarnessContext } from "../../types.js";
import description from "../descriptions/skill.md";
import { skillSchema } from "../tool-schemas.js";
import { failure } from "./qwen-paths.js";

const Args = z.looseObject({ skill: z.string(), args: z.string().nullish() });
type Args = z.infer<typeof Args>;

/**
 * Qwen Code `skill`: loads one skill of the session's catalog (listed in the opening
 * `<available_skills>` reminder) by returning its SKILL.md without the front matter.
 */
export function skillTool(skills: HarnessContext["skills"]): Tool<Args> {
  const find = (name: string) => skills.find((skill) => skill.name === name.trim().replace(/^\//, ""));
  return {
    name: "skill",
    description: description.trimEnd(),
    kind: "read",
    capability: "read",
    parameters: skillSchema(),
    schema: Args,
    preview: async (args) => ({ title: `Skill ${args.skill}` }),
    access: (args) => {
      const skill = find(args.skill);
      return skill ? { type: "read", paths: [skill.path] } : { type: "none" };
    },
    async execute(args, ctx) {
      const skill = find(args.skill);
      if (!skill) {
        const known = skills.map((s) => s.name).join(", ") || "none";
        return failure(`Skill "${args.skill}" not found. Available skills: ${known}`);
      }
      const text = await ctx.fs.readText(skill.path);
      const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*\r?\n/, "").trim();
      const request = args.args ? `\n\nArguments: ${args.args}` : "";
      return { output: `Base directory for this skill: ${path.dirname(skill.path)}\n\n${body}${request}` };
    },
  };
}
