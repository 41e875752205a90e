import type { HarnessInfo } from "../types.js";

export const claudeCodeInfo: HarnessInfo = {
  id: "claude-code",
  title: "Claude Code",
  description: "Anthropic Claude Code: Bash, Glob, Grep, Read, Edit, Write and TodoWrite",
  wires: ["chat", "responses", "messages"],
  original: { name: "Claude Code", source: "npm:@anthropic-ai/claude-code", version: "2.1.44" },
  matches: (model) => /claude|anthropic/i.test(model),
};
