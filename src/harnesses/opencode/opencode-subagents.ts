import type { Tool } from "../../tools/types.js";
import explorePrompt from "./prompt-explore.md";

/** One of opencode 1.18.33's built-in subagents: what the task tool lists and what the child runs with. */
export interface OpencodeSubagent {
  type: string;
  /** The line the task tool's description gives it (our words). */
  whenToUse: string;
  /** The parent's tools it keeps. */
  keeps(tool: Tool): boolean;
  /** Its own system prompt in place of the model family's; unset: the family's. */
  prompt?: string;
}

/**
 * 1.18.33's `general` (every tool but todowrite, and task, which a subagent is denied unless its
 * permissions name it) and `explore` (its permissions deny everything but grep, glob, list, bash,
 * webfetch, websearch and read; its own prompt).
 */
export const OPENCODE_SUBAGENTS: readonly OpencodeSubagent[] = [
  {
    type: "general",
    whenToUse:
      "An all-round agent for open research questions and tasks of several steps; several of them can work on separate parts at once.",
    keeps: (tool) => tool.name !== "task" && tool.name !== "todowrite",
  },
  {
    type: "explore",
    whenToUse:
      'A quick agent for finding your way around a codebase: files by pattern (e.g. "src/components/**/*.tsx"), code by keyword (e.g. "API endpoints"), or how something works (e.g. "how do API endpoints work?"). Say how thorough it should be: "quick", "medium" or "very thorough".',
    keeps: (tool) => ["bash", "glob", "grep", "read", "webfetch"].includes(tool.name),
    prompt: explorePrompt.trimEnd(),
  },
];

export function opencodeSubagent(type: string): OpencodeSubagent | undefined {
  return OPENCODE_SUBAGENTS.find((agent) => agent.type === type);
}
