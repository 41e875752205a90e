import { pathToFileURL } from "node:url";
import { MODES, type Mode } from "../config/types.js";
import type { Skill } from "../context/skills/parse-skill.js";
import type { ContentBlock } from "../store/events.js";
import type { Session } from "./session.js";
import { harnessList, mcpText, modelList, skillList, statusText, usageText } from "./slash-texts.js";
import type { SlashCommandInfo } from "./types.js";

/** What a slash command needs to answer. */
interface SlashContext {
  session: Session;
  /** What follows the command name, trimmed. */
  arg: string;
  /** Where the model endpoint is, for `/status`. */
  endpoint: string;
}

/** An answer for the user (recorded as a notice, so it replays on load) or a prompt for the model. */
type SlashAnswer = { say: string } | { prompt: ContentBlock[] };

/** A built-in command: what the editor lists, and what it does. */
interface SlashCommand extends SlashCommandInfo {
  run(ctx: SlashContext): SlashAnswer | Promise<SlashAnswer>;
}

const INIT_PROMPT = `Survey this repository and write an AGENTS.md file at its root for coding agents that will work on it.
Look at the layout, the build and test commands (package manifests, Makefiles, CI files), the languages and frameworks, and any existing contributor docs.
The file should say, briefly and concretely: what the project is; how to install, build, run the tests and lint; how the code is organised; the conventions a change must follow; and anything surprising.
Keep it short (well under 200 lines), use commands that really exist in this repository, and do not invent facts. If an AGENTS.md already exists, improve it instead of replacing what is still true.`;

const COMMANDS: SlashCommand[] = [
  {
    name: "harness",
    description: "Switch the tool harness (alone: list the harnesses)",
    hint: "harness id",
    run({ session, arg }) {
      if (!arg) return { say: harnessList(session) };
      const problem = session.setHarness(arg, "/harness");
      if (problem) return { say: problem };
      return {
        say: `Harness set to \`${session.options().harness}\`; the next request uses its tools and prompt.`,
      };
    },
  },
  {
    name: "model",
    description: "Switch the model (alone: list known models)",
    hint: "model id",
    run({ session, arg }) {
      if (!arg) return { say: modelList(session) };
      session.setModel(arg);
      return { say: `Model set to \`${arg}\`.` };
    },
  },
  {
    name: "mode",
    description: "Switch the permission mode (alone: list the modes)",
    hint: MODES.join(" | "),
    run({ session, arg }) {
      if (!arg)
        return { say: `Mode: \`${session.mode}\`. Modes: ${MODES.map((m) => `\`${m}\``).join(", ")}.` };
      if (!(MODES as readonly string[]).includes(arg))
        return { say: `Unknown mode \`${arg}\`. Modes: ${MODES.join(", ")}.` };
      session.setMode(arg as Mode);
      return { say: `Mode set to \`${arg}\`.` };
    },
  },
  {
    name: "rename",
    description: "Set this session's title (alone: show it)",
    hint: "new title",
    run({ session, arg }) {
      if (!arg) return { say: `Title: ${session.record.title ?? "(none yet)"}` };
      return { say: session.rename(arg) ?? `Title set to “${session.record.title}”.` };
    },
  },
  {
    name: "status",
    description: "Show the model, endpoint, harness, mode, context use and background commands",
    run: async ({ session, endpoint }) => ({ say: await statusText(session, endpoint) }),
  },
  {
    name: "skills",
    description: "List the Agent Skills this session can use",
    run: async ({ session }) => ({ say: skillList(await session.skills()) }),
  },
  {
    name: "mcp",
    description: "Show the MCP servers of this session and their state",
    run: ({ session }) => ({ say: mcpText(session) }),
  },
  {
    name: "trust",
    description: "Trust this project: use its .openinterpreter/config.toml",
    run: ({ session }) => ({ say: session.trust.trustNow() }),
  },
  {
    name: "usage",
    description: "Show the tokens this session has used",
    run: ({ session }) => ({ say: usageText(session) }),
  },
  {
    name: "compact",
    description: "Summarize the conversation so far to free context",
    async run({ session }) {
      try {
        return { say: await session.compact() };
      } catch (error) {
        return { say: `Compaction failed: ${error instanceof Error ? error.message : String(error)}` };
      }
    },
  },
  {
    name: "init",
    description: "Survey the repository and write an AGENTS.md for it",
    run: ({ arg }) => ({ prompt: [{ type: "text", text: arg ? `${INIT_PROMPT}\n\n${arg}` : INIT_PROMPT }] }),
  },
];

export const SLASH_COMMANDS: SlashCommandInfo[] = COMMANDS.map(({ name, description, hint }) => ({
  name,
  description,
  ...(hint ? { hint } : {}),
}));

/** What a prompt turned out to be: handled here (answered with a notice), or what to send to the model. */
export type SlashOutcome = { handled: true } | { handled: false; prompt: ContentBlock[] };

/**
 * The one dispatcher for `/name args`: a built-in command runs (its answer is a notice, or a
 * prompt for the model); `/<skill>` sends the prompt with the skill attached; anything else,
 * an unknown `/x` included, goes to the model unchanged.
 */
export async function handleSlashCommand(options: {
  session: Session;
  content: ContentBlock[];
  endpoint: string;
}): Promise<SlashOutcome> {
  const { session, content, endpoint } = options;
  const invoked = invocation(content);
  const command = invoked && COMMANDS.find((c) => c.name === invoked.name);
  if (command) {
    const answer = await command.run({ session, arg: invoked.arg, endpoint });
    if ("prompt" in answer) return { handled: false, prompt: answer.prompt };
    session.notice("info", answer.say);
    return { handled: true };
  }
  if (!invoked) return { handled: false, prompt: content };
  return { handled: false, prompt: expandSkillCommand(content, await session.skills()) ?? content };
}

/** Built-ins first, then one command per skill whose name no built-in takes. */
export function availableCommands(skills: Skill[]): SlashCommandInfo[] {
  const taken = new Set(SLASH_COMMANDS.map((c) => c.name));
  const fromSkills = skills
    .filter((skill) => !taken.has(skill.name))
    .map((skill) => ({ name: skill.name, description: skill.description, hint: "what to do" }));
  return [...SLASH_COMMANDS, ...fromSkills];
}

/**
 * `/skill-name args` → the prompt as typed plus the skill's SKILL.md as embedded context, so
 * the model follows the skill without having to find it. Undefined when no skill matches.
 */
export function expandSkillCommand(content: ContentBlock[], skills: Skill[]): ContentBlock[] | undefined {
  const name = invocation(content)?.name;
  const skill =
    name && !COMMANDS.some((c) => c.name === name) ? skills.find((s) => s.name === name) : undefined;
  if (!skill) return undefined;
  const resource = {
    type: "resource",
    resource: {
      uri: pathToFileURL(skill.path).href,
      mimeType: "text/markdown",
      text: `Use the skill \`${skill.name}\` (folder ${skill.directory}) for this request.\n\n${skill.body.trim()}`,
    },
  };
  return [...content, resource];
}

/** The command a prompt starts with: its first block is text beginning `/name`. */
function invocation(content: ContentBlock[]): { name: string; arg: string } | undefined {
  const first = content[0];
  if (first?.type !== "text" || typeof first.text !== "string") return undefined;
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(first.text.trim());
  return match ? { name: match[1] as string, arg: (match[2] ?? "").trim() } : undefined;
}
