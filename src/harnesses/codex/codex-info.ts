import type { HarnessInfo } from "../types.js";

export const codexInfo: HarnessInfo = {
  id: "codex",
  title: "Codex",
  description: "OpenAI Codex: shell_command, apply_patch and update_plan (the default)",
  wires: ["chat", "responses"],
  matches: (model) => /gpt|codex|\bo[1-9]\b|openai/i.test(model),
};
