import type { Tool } from "../../tools/types.js";
import explore from "./agents/explore.md";
import generalPurpose from "./agents/general-purpose.md";
import notes from "./agents/notes.md";
import plan from "./agents/plan.md";

/** One of Claude Code 2.1.44's built-in subagent types: its prompt and the tools it goes without. */
export interface ClaudeSubagent {
  type: string;
  /** For the Task description's list of types. */
  whenToUse: string;
  /** The system prompt's own part; the notes and the `<env>` block follow it. */
  prompt: string;
  /** Besides the tools no subagent gets. */
  disallowed: readonly string[];
}

/** No subagent of 2.1.44 starts subagents, reads or stops background tasks, or talks to the user. */
const NEVER = ["Task", "TaskOutput", "TaskStop", "ExitPlanMode", "EnterPlanMode", "AskUserQuestion"];
const READ_ONLY = ["Edit", "Write", "NotebookEdit"];

/**
 * The types we offer, as 2.1.44 defines them (prompts in our words). Its `statusline-setup` and
 * `claude-code-guide` types configure and document Claude Code itself and are left out.
 */
export const CLAUDE_SUBAGENTS: readonly ClaudeSubagent[] = [
  {
    type: "general-purpose",
    whenToUse:
      "A general agent for researching hard questions, searching for code and doing tasks of several steps. When you look for a keyword or file and are not sure the first few tries will find it, let this agent search for you.",
    prompt: generalPurpose,
    disallowed: [],
  },
  {
    type: "Explore",
    whenToUse:
      'A fast agent for exploring codebases. Use it to find files by pattern (e.g. "src/components/**/*.tsx"), search code for keywords (e.g. "API endpoints") or answer questions about the codebase (e.g. "how do API endpoints work?"). Say how thorough it should be: "quick" for basic searches, "medium" for moderate exploration, "very thorough" for a wide analysis across many places and naming conventions.',
    prompt: explore,
    disallowed: READ_ONLY,
  },
  {
    type: "Plan",
    whenToUse:
      "A software architect agent for designing implementation plans. Use it to plan how to implement a task: it returns step-by-step plans, names the critical files and weighs the architectural trade-offs.",
    prompt: plan,
    disallowed: READ_ONLY,
  },
];

export function claudeSubagent(type: string): ClaudeSubagent | undefined {
  return CLAUDE_SUBAGENTS.find((agent) => agent.type === type);
}

/** 2.1.44's names in its error text, sorted as it sorts them (case-insensitively). */
export function claudeSubagentNames(): string {
  return CLAUDE_SUBAGENTS.map((a) => a.type)
    .sort((a, b) => (a.toLowerCase() < b.toLowerCase() ? -1 : 1))
    .join(", ");
}

/** The main agent's tools a subagent of `agent`'s type keeps, in their order. */
export function subagentTools(tools: Tool[], agent: ClaudeSubagent): Tool[] {
  return tools.filter((tool) => !NEVER.includes(tool.name) && !agent.disallowed.includes(tool.name));
}

/** The subagent's system prompt before the `<env>` block. */
export function subagentPrompt(agent: ClaudeSubagent): string {
  return `${agent.prompt.trimEnd()}\n\n${notes.trimEnd()}`;
}
