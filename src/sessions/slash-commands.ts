import { pathToFileURL } from "node:url";
import { MODES, type Mode } from "../config/types.js";
import type { Skill } from "../context/skills/parse-skill.js";
import type { ContentBlock } from "../store/events.js";
import type { Session } from "./session.js";
import type { SlashCommandInfo } from "./types.js";
import { formatCost } from "./usage-totals.js";

export const SLASH_COMMANDS: SlashCommandInfo[] = [
  { name: "harness", description: "Switch the tool harness (alone: list the harnesses)", hint: "harness id" },
  { name: "model", description: "Switch the model (alone: list known models)", hint: "model id" },
  {
    name: "mode",
    description: "Switch the permission mode (alone: list the modes)",
    hint: MODES.join(" | "),
  },
  { name: "status", description: "Show the model, endpoint, harness, mode and context use" },
  { name: "skills", description: "List the Agent Skills this session can use" },
  { name: "mcp", description: "Show the MCP servers of this session and their state" },
  { name: "trust", description: "Trust this project: use its .openinterpreter/config.toml" },
  { name: "usage", description: "Show the tokens this session has used" },
  { name: "compact", description: "Summarize the conversation so far to free context" },
  { name: "init", description: "Survey the repository and write an AGENTS.md for it" },
];

const INIT_PROMPT = `Survey this repository and write an AGENTS.md file at its root for coding agents that will work on it.
Look at the layout, the build and test commands (package manifests, Makefiles, CI files), the languages and frameworks, and any existing contributor docs.
The file should say, briefly and concretely: what the project is; how to install, build, run the tests and lint; how the code is organised; the conventions a change must follow; and anything surprising.
Keep it short (well under 200 lines), use commands that really exist in this repository, and do not invent facts. If an AGENTS.md already exists, improve it instead of replacing what is still true.`;

/** What a prompt turned out to be: handled here (answered with a notice), or what to send to the model. */
export type SlashOutcome = { handled: true } | { handled: false; prompt: ContentBlock[] };

/**
 * Built-in commands answer with notices (recorded, so they replay on load); `/init` and
 * `/<skill>` become prompts for the model; anything else goes to the model unchanged.
 */
export async function handleSlashCommand(options: {
  session: Session;
  content: ContentBlock[];
  endpoint: string;
}): Promise<SlashOutcome> {
  const { session, content } = options;
  if (
    runSlashCommand({ session, content, endpoint: options.endpoint, sandbox: await session.sandboxSummary() })
  ) {
    return { handled: true };
  }
  const first = content[0];
  const text = first?.type === "text" && typeof first.text === "string" ? first.text.trim() : "";
  const skills = await session.skills();
  if (text === "/compact") {
    try {
      session.notice("info", await session.compact());
    } catch (error) {
      session.notice("error", `Compaction failed: ${error instanceof Error ? error.message : String(error)}`);
    }
    return { handled: true };
  }
  if (text === "/skills") {
    session.notice("info", skillList(skills));
    return { handled: true };
  }
  if (text === "/init" || text.startsWith("/init ")) {
    const extra = text.slice("/init".length).trim();
    return {
      handled: false,
      prompt: [{ type: "text", text: extra ? `${INIT_PROMPT}\n\n${extra}` : INIT_PROMPT }],
    };
  }
  return { handled: false, prompt: expandSkillCommand(content, skills) ?? content };
}

function skillList(skills: Skill[]): string {
  if (skills.length === 0)
    return "No skills found. Add one as `.agents/skills/<name>/SKILL.md` in the project or `~/.agents/skills`.";
  return `Skills (use \`/<name>\` or just ask):\n${skills.map((s) => `- \`${s.name}\`: ${s.description} (${s.path})`).join("\n")}`;
}

/**
 * Runs a built-in slash command if the prompt is one; returns false otherwise (unknown `/x`
 * goes to the model as text). Answers are recorded as notices, so they replay on load.
 */
function runSlashCommand(options: {
  session: Session;
  content: ContentBlock[];
  endpoint: string;
  sandbox: string;
}): boolean {
  const { session, content, endpoint } = options;
  const first = content[0];
  if (content.length !== 1 || first?.type !== "text" || typeof first.text !== "string") return false;
  const match = /^\/(\S+)\s*([\s\S]*)$/.exec(first.text.trim());
  if (!match) return false;
  const [, name, rest] = match;
  const arg = rest?.trim() ?? "";
  switch (name) {
    case "harness":
      return say(session, harness(session, arg));
    case "model":
      return say(session, model(session, arg));
    case "mode":
      return say(session, mode(session, arg));
    case "status":
      return say(session, status(session, endpoint, options.sandbox));
    case "usage":
      return say(session, usage(session));
    case "mcp":
      return say(session, mcp(session));
    case "trust":
      return say(session, session.trustProject());
    default:
      return false;
  }
}

function say(session: Session, text: string): true {
  session.notice("info", text);
  return true;
}

function harness(session: Session, arg: string): string {
  const options = session.options();
  if (!arg) {
    const lines = options.harnesses.map(
      (h) => `- \`${h.id}\`${h.id === options.harness ? " (active)" : ""}: ${h.description}`,
    );
    return `Harnesses:\n${lines.join("\n")}\n\nSwitch with \`/harness <id>\`.`;
  }
  if (!session.setHarness(arg)) {
    return `Unknown harness \`${arg}\`. Available: ${options.harnesses.map((h) => h.id).join(", ")}.`;
  }
  return `Harness set to \`${session.options().harness}\`; the next request uses its tools and prompt.`;
}

function model(session: Session, arg: string): string {
  if (!arg) {
    const { models, model: current } = session.options();
    return `Models:\n${models.map((m) => `- \`${m}\`${m === current ? " (active)" : ""}`).join("\n")}\n\nSwitch with \`/model <id>\`.`;
  }
  session.setModel(arg);
  return `Model set to \`${arg}\`.`;
}

function mode(session: Session, arg: string): string {
  if (!arg) return `Mode: \`${session.mode}\`. Modes: ${MODES.map((m) => `\`${m}\``).join(", ")}.`;
  if (!(MODES as readonly string[]).includes(arg)) {
    return `Unknown mode \`${arg}\`. Modes: ${MODES.join(", ")}.`;
  }
  session.setMode(arg as Mode);
  return `Mode set to \`${arg}\`.`;
}

function mcp(session: Session): string {
  const { servers, problems } = session.mcpStatus();
  if (servers.length === 0 && problems.length === 0) {
    return "No MCP servers. Add them under [mcp_servers.<name>] in config.toml, or in your editor's settings.";
  }
  const lines = servers.map((s) => {
    const detail =
      s.state === "ready" ? `${s.tools} tools` : s.state === "failed" ? `failed: ${s.error}` : s.state;
    return `- \`${s.name}\` (${s.transport}, from ${s.source}): ${detail}`;
  });
  return [`MCP servers:`, ...lines, ...problems.map((p) => `- not used: ${p}`)].join("\n");
}

function usage(session: Session): string {
  const t = session.usageTotals();
  if (t.requests === 0) return "No model requests yet in this session.";
  const share = t.inputTokens > 0 ? Math.round((100 * t.cachedInputTokens) / t.inputTokens) : 0;
  const estimated =
    t.estimated > 0
      ? ` (${t.estimated} estimated: the endpoint reported no usage, counted as bytes / 4)`
      : "";
  const cost =
    t.priced === 0
      ? `unknown (set [model_prices."${session.model}"] with input, cached_input and output per million tokens in config.toml)`
      : `${formatCost(t.cost)} ${t.currency ?? ""}${t.priced < t.requests ? ` for ${t.priced} of ${t.requests} requests` : ""}`;
  const c = t.compaction;
  const compaction =
    c.requests === 0
      ? []
      : [
          `Of which compaction: ${c.requests} ${c.requests === 1 ? "request" : "requests"}, ${c.inputTokens + c.outputTokens} tokens (input ${c.inputTokens}, output ${c.outputTokens})${t.priced > 0 ? `, ${formatCost(c.cost)} ${t.currency ?? ""}`.trimEnd() : ""}`,
        ];
  return [
    `Model requests: ${t.requests}${estimated}`,
    `Input tokens: ${t.inputTokens} (cached: ${t.cachedInputTokens}, ${share}%)`,
    `Output tokens: ${t.outputTokens} (reasoning: ${t.reasoningTokens})`,
    `Cost: ${cost.trimEnd()}`,
    ...compaction,
    `Time waiting for the model: ${(t.latencyMs / 1000).toFixed(1)} s`,
  ].join("\n");
}

function status(session: Session, endpoint: string, sandbox: string): string {
  const choice = session.harnessChoice();
  const usage = session.lastUsage();
  const context = usage ? `${usage.contextUsed} / ${usage.contextSize} tokens` : "no model response yet";
  return [
    `Session: ${session.id}`,
    `Directory: ${session.record.cwd}`,
    `Model: ${session.model || "(none configured)"} at ${endpoint}`,
    `Harness: ${choice.harness.id} (${choice.reason})`,
    `Mode: ${session.mode}`,
    `Sandbox: ${sandbox}`,
    `MCP servers: ${mcpSummary(session)}`,
    `Context: ${context}`,
  ].join("\n");
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
  const first = content[0];
  if (first?.type !== "text" || typeof first.text !== "string") return undefined;
  const name = /^\/([a-z0-9-]+)(?:\s|$)/.exec(first.text.trim())?.[1];
  const skill =
    name && !SLASH_COMMANDS.some((c) => c.name === name) ? skills.find((s) => s.name === name) : undefined;
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

function mcpSummary(session: Session): string {
  const { servers } = session.mcpStatus();
  if (servers.length === 0) return "none";
  return servers.map((s) => `${s.name} (${s.state === "ready" ? `${s.tools} tools` : s.state})`).join(", ");
}
