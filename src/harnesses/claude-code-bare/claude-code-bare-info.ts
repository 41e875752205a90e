import type { HarnessInfo } from "../types.js";

export const claudeCodeBareInfo: HarnessInfo = {
  id: "claude-code-bare",
  title: "Claude Code (bare)",
  description:
    "Claude Code's minimal mode: only Bash, Read and Edit with a short prompt (DeepSeek's default)",
  wires: ["chat", "responses", "messages"],
  matches: (model) => /deepseek/i.test(model),
};
