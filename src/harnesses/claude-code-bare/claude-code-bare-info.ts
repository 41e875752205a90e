import type { HarnessInfo } from "../types.js";

export const claudeCodeBareInfo: HarnessInfo = {
  id: "claude-code-bare",
  title: "Claude Code (bare)",
  description:
    "Claude Code's minimal mode: only Bash, Read and Edit with a short prompt (DeepSeek's default)",
  wires: ["chat", "responses", "messages"],
  original: { name: "Claude Code", source: "npm:@anthropic-ai/claude-code", version: "2.1.44" },
  matches: (model) => /deepseek/i.test(model),
};
