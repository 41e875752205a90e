import type { Tool } from "../../tools/types.js";
import explore from "./agents/explore.md";
import generalPurpose from "./agents/general-purpose.md";

/** One of Qwen Code 0.24.4's built-in subagents. */
export interface QwenSubagent {
  type: string;
  prompt: string;
  /** The main agent's tools it keeps; unset: all but `agent`. */
  tools?: readonly string[];
}

/**
 * 0.24.4's built-in `general-purpose` (the default, every tool) and `Explore` (read-only) types,
 * prompts in our words. Its `statusline-setup` type configures Qwen Code itself and is left out.
 */
export const QWEN_SUBAGENTS: readonly QwenSubagent[] = [
  { type: "general-purpose", prompt: generalPurpose },
  {
    type: "Explore",
    prompt: explore,
    tools: ["glob", "grep_search", "read_file", "run_shell_command", "skill"],
  },
];

export const DEFAULT_QWEN_SUBAGENT = "general-purpose";

/** Qwen Code matches the type without regard to case. */
export function qwenSubagent(type: string): QwenSubagent | undefined {
  return QWEN_SUBAGENTS.find((agent) => agent.type.toLowerCase() === type.toLowerCase());
}

/** The main agent's tools the subagent keeps, in their order; no subagent starts another. */
export function qwenSubagentTools(tools: Tool[], agent: QwenSubagent): Tool[] {
  return tools.filter((tool) => tool.name !== "agent" && (!agent.tools || agent.tools.includes(tool.name)));
}
