import type { Tool } from "../../tools/types.js";
import exploreRole from "./agents/explore-role.md";
import planRole from "./agents/plan-role.md";
import subagentRole from "./agents/subagent-role.md";

/** One of Kimi CLI 1.49.0's built-in subagents (`agents/default/{coder,explore,plan}.yaml`). */
export interface KimiCliSubagent {
  type: string;
  description: string;
  whenToUse: string;
  /** Its `allowed_tools`, kept in the main agent's order. */
  tools: readonly string[];
  /** Its `ROLE_ADDITIONAL` slot. */
  role: string;
}

const WEB = ["SearchWeb", "FetchURL"];
const READ = ["ReadFile", "ReadMediaFile", "Glob", "Grep"];

/** 1.49.0's three profiles (descriptions and roles in our words), in `agent.yaml`'s order. */
const KIMI_CLI_SUBAGENTS: readonly KimiCliSubagent[] = [
  {
    type: "coder",
    description: "Good at general software engineering tasks.",
    whenToUse:
      "Use this agent for software engineering work that is not trivial and may need reading files, editing code and running commands, and that ends in a compact but technically complete summary for the parent agent.",
    tools: ["Shell", ...READ, "WriteFile", "StrReplaceFile", ...WEB],
    role: subagentRole.trim(),
  },
  {
    type: "explore",
    description: "Fast codebase exploration with prompt-enforced read-only behavior.",
    whenToUse:
      'A fast agent for exploring codebases: finding files by pattern (e.g. "src/**/*.yaml"), searching code for keywords (e.g. "database connection") or answering questions about the codebase (e.g. "how does the auth module work?"). Say how thorough it should be: "quick" for simple searches, "medium" for a moderate look, "thorough" for a full analysis across places and naming conventions. Use it for any read-only exploration that will clearly take more than 3 tool calls, and start several at once for separate questions.',
    tools: ["Shell", ...READ, ...WEB],
    role: `${subagentRole.trim()}\n${exploreRole.trimEnd()}`,
  },
  {
    type: "plan",
    description: "Read-only implementation planning and architecture design.",
    whenToUse:
      "Use this agent when the parent agent needs a step-by-step implementation plan, the key files and the architectural trade-offs before any code changes.",
    tools: [...READ, ...WEB],
    role: `${subagentRole.trim()}\n${planRole.trimEnd()}`,
  },
];

export function kimiCliSubagent(type: string): KimiCliSubagent | undefined {
  return KIMI_CLI_SUBAGENTS.find((agent) => agent.type === type);
}

export function subagentTools(tools: Tool[], agent: KimiCliSubagent): Tool[] {
  return tools.filter((tool) => agent.tools.includes(tool.name));
}

/** The `${BUILTIN_AGENT_TYPES_MD}` lines of the Agent description (`tools/agent/__init__.py`). */
export function builtinAgentTypes(): string {
  return KIMI_CLI_SUBAGENTS.map(
    (agent) =>
      `- \`${agent.type}\`: ${agent.description} (Tools: ${agent.tools.join(", ")}, Model: inherit, Background: yes). When to use: ${agent.whenToUse}`,
  ).join("\n");
}
