import type { HarnessInfo } from "../types.js";

export const claudeCodeInfo: HarnessInfo = {
  id: "claude-code",
  title: "Claude Code",
  description: "Anthropic Claude Code: Bash, Read, Write, Edit, MultiEdit, Glob, Grep, LS and TodoWrite",
  wires: ["chat", "responses", "messages"],
  matches: (model) => /claude|anthropic/i.test(model),
};
