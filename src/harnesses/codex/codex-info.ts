import type { HarnessInfo } from "../types.js";

export const codexInfo: HarnessInfo = {
  id: "codex",
  title: "Codex",
  description: "OpenAI Codex: exec_command and write_stdin, apply_patch (the default)",
  wires: ["chat", "responses"],
  matches: (model) => /gpt|codex|\bo[1-9]\b|openai/i.test(model),
  original: { name: "Codex CLI", source: "npm:@openai/codex", version: "0.171.0" },
};
