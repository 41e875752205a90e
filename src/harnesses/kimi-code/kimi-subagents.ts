import type { Tool } from "../../tools/types.js";
import exploreOverlay from "./agents/explore-overlay.md";

/** One of Kimi Code 2.1.0's built-in subagent profiles. */
export interface KimiSubagent {
  type: string;
  description: string;
  whenToUse: string;
  /** The tools the profile may use (its `activeToolNames`); the rest of the main agent's are left out. */
  tools: readonly string[];
  /** Appended to the main system prompt. */
  overlay?: string;
}

/**
 * 2.1.0's `coder` (the default) and `explore` profiles with their tool lists (descriptions in
 * our words). `coder` keeps Agent, so a coder subagent may start its own up to `[agents]
 * max_depth`.
 */
export const KIMI_SUBAGENTS: readonly KimiSubagent[] = [
  {
    type: "coder",
    description: "General software engineering agent.",
    whenToUse:
      "For implementing, fixing bugs, refactoring, writing tests and other coding tasks of several steps that may edit files or run commands.",
    tools: [
      "Agent",
      "AgentSwarm",
      "Bash",
      "CronCreate",
      "CronDelete",
      "CronList",
      "Edit",
      "EnterPlanMode",
      "ExitPlanMode",
      "Glob",
      "Grep",
      "Read",
      "ReadMediaFile",
      "Skill",
      "TaskList",
      "TaskOutput",
      "TaskStop",
      "TodoList",
      "WebSearch",
      "FetchURL",
      "Write",
    ],
  },
  {
    type: "explore",
    description: "Read-only specialist for exploring codebases.",
    whenToUse:
      "For fast read-only exploration that takes more than a few searches: finding files, searching code and answering questions about the codebase. Say quick, medium or thorough.",
    tools: ["Bash", "Read", "ReadMediaFile", "Glob", "Grep", "WebSearch", "FetchURL"],
    overlay: exploreOverlay,
  },
];

export const DEFAULT_KIMI_SUBAGENT = "coder";

export function kimiSubagent(type: string): KimiSubagent | undefined {
  return KIMI_SUBAGENTS.find((agent) => agent.type === type);
}

/** The main agent's tools the profile keeps, in their order. */
export function kimiSubagentTools(tools: Tool[], agent: KimiSubagent): Tool[] {
  return tools.filter((tool) => agent.tools.includes(tool.name));
}

/** The lines 2.1.0 appends to the Agent description, one per profile with its tools. */
export function kimiAgentTypes(): string {
  return KIMI_SUBAGENTS.map((agent) => {
    const tools = agent.tools.includes("Agent") ? "all" : agent.tools.join(", ");
    return `- ${agent.type}: ${agent.description} ${agent.whenToUse}\n  Tools: ${tools}`;
  }).join("\n");
}
