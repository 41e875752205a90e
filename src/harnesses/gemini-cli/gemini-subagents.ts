import type { Tool } from "../../tools/types.js";
import codebaseInvestigator from "./agents/codebase-investigator.md";

/** One of Gemini CLI 0.61's local subagents that `invoke_agent` can start. */
export interface GeminiSubagent {
  name: string;
  /** The subagent's own system prompt; unset: the main agent's. */
  prompt?: string;
  /** The main agent's tools it keeps; unset: all but `invoke_agent`. */
  tools?: readonly string[];
}

/**
 * The built-in subagents we run: `codebase_investigator` (read-only, its own prompt, in our
 * words) and `generalist` (the main agent's prompt and tools). 0.61's `cli_help` answers questions
 * about Gemini CLI itself and is left out.
 */
export const GEMINI_SUBAGENTS: readonly GeminiSubagent[] = [
  {
    name: "codebase_investigator",
    prompt: codebaseInvestigator,
    tools: ["list_directory", "read_file", "glob", "grep_search"],
  },
  { name: "generalist" },
];

export function geminiSubagent(name: string): GeminiSubagent | undefined {
  return GEMINI_SUBAGENTS.find((agent) => agent.name === name);
}

/** The main agent's tools the subagent keeps, in their order; no subagent starts another. */
export function geminiSubagentTools(tools: Tool[], agent: GeminiSubagent): Tool[] {
  return tools.filter(
    (tool) => tool.name !== "invoke_agent" && (!agent.tools || agent.tools.includes(tool.name)),
  );
}
