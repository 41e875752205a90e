import type { SubagentInfo, SubagentOutcome } from "../../tools/agents/types.js";
import type { ToolResult } from "../../tools/types.js";

/**
 * ZCode's agent types as its Agent description lists them. `general-purpose` runs with the main
 * prompt and every tool (upstream opens it as a ZCode session of its own); `Explore` with its
 * read-only prompt and the four tools upstream gives it.
 */
export const ZCODE_SUBAGENTS = [
  {
    type: "general-purpose",
    whenToUse:
      "An all-round agent for researching hard questions, searching code and carrying out tasks of several steps. When you look for a keyword or file and doubt the first few tries will find it, let this agent search.",
    tools: "*",
  },
  {
    type: "Explore",
    whenToUse:
      'A read-only search agent for wide searches, when an answer means sweeping many files, folders or naming conventions and you need only the conclusion. It reads excerpts rather than whole files: it finds code, it does not review it. Say how broad to search: "medium" or "very thorough".',
    tools: "Read, Bash, WebFetch, WebSearch, TodoWrite",
  },
] as const;

/** The tools an Explore agent gets (upstream's `build_tools_for_names`). */
export const EXPLORE_TOOLS = ["Bash", "Read", "TodoWrite", "WebFetch"];

export function isZCodeSubagent(type: string): boolean {
  return ZCODE_SUBAGENTS.some((agent) => agent.type === type);
}

/** ZCode's agent ids: `agent_` and the child session's id. */
export function agentId(sessionId: string): string {
  return `agent_${sessionId}`;
}

export function findAgent(children: SubagentInfo[], id: string): SubagentInfo | undefined {
  return children.findLast((child) => agentId(child.sessionId) === id.trim());
}

/**
 * Upstream's answer: the agent's text, then its id with the SendMessage hint and the `<usage>`
 * lines; a failure is the agent's error, a cancel upstream's status line.
 */
export function agentResult(outcome: SubagentOutcome): ToolResult {
  switch (outcome.status) {
    case "refused":
      return { output: outcome.message, isError: true };
    case "cancelled":
      return { output: "Agent ended with status Interrupted", isError: true };
    case "failed":
      return { output: outcome.error, isError: true };
    case "completed": {
      const id = agentId(outcome.sessionId);
      const { usage } = outcome;
      return {
        output: `${outcome.text.trimEnd()}\nagentId: ${id} (use SendMessage with to: '${id}' to continue this agent)\n<usage>subagent_tokens: ${usage.totalTokens}\ntool_uses: ${usage.toolUses}\nduration_ms: ${usage.durationMs}</usage>`,
      };
    }
  }
}
