import path from "node:path";
import { z } from "zod";
import { globFiles } from "../../../tools/fs/glob-files.js";
import type { Tool } from "../../../tools/types.js";
import type { HarnessContext } from "../../types.js";
import { skillSchema } from "../tool-schemas.js";
import description from "./skill.md";

const Args = z.looseObject({ name: z.string() });
type Args = z.infer<typeof Args>;

/** How many of a skill's other files opencode samples into `<skill_files>`. */
const SAMPLED_FILES = 10;

/**
 * opencode `skill` (1.18.33 `tool/skill.ts`): the skill's body inside `<skill_content>`, its base
 * directory, and up to ten of its other files in `<skill_files>`; an unknown name lists the ones
 * there are.
 */
export function skillTool(skills: HarnessContext["skills"]): Tool<Args> {
  const find = (name: string) => skills.find((skill) => skill.name === name);
  return {
    name: "skill",
    description: description.trimEnd(),
    kind: "read",
    capability: "read",
    parameters: skillSchema,
    schema: Args,
    preview: async (args) => ({ title: `Loaded skill: ${args.name}` }),
    access: (args) => {
      const skill = find(args.name);
      return skill ? { type: "read", paths: [path.dirname(skill.path)] } : { type: "none" };
    },
    async execute(args, ctx) {
      const skill = find(args.name);
      if (!skill) {
        const known = skills.map((s) => s.name).sort();
        return {
          output: `Skill "${args.name}" not found. Available skills: ${known.join(", ") || "none"}`,
          isError: true,
        };
      }
      const dir = path.dirname(skill.path);
      const text = await ctx.fs.readText(skill.path);
      const body = text.replace(/^---\r?\n[\s\S]*?\r?\n---[ \t]*(\r?\n|$)/, "").trim();
      const found = await globFiles({
        pattern: "**/*",
        cwd: dir,
        signal: ctx.signal,
        limit: SAMPLED_FILES + 1,
      }).catch(() => ({ files: [] as string[] }));
      const files = found.files
        .map((file) => path.resolve(dir, file))
        .filter((file) => path.basename(file) !== "SKILL.md")
        .slice(0, SAMPLED_FILES);
      return {
        output: [
          `<skill_content name="${skill.name}">`,
          `# Skill: ${skill.name}`,
          "",
          body,
          "",
          `Base directory for this skill: ${dir}`,
          "Relative paths in this skill (e.g., scripts/, reference/) are relative to this base directory.",
          "Note: file list is sampled.",
          "",
          "<skill_files>",
          files.map((file) => `<file>${file}</file>`).join("\n"),
          "</skill_files>",
          "</skill_content>",
        ].join("\n"),
      };
    },
  };
}
