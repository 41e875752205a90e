import type { HarnessInfo } from "../types.js";

export const geminiCliInfo: HarnessInfo = {
  id: "gemini-cli",
  title: "Gemini CLI",
  description: "Gemini CLI: read_file, replace, run_shell_command, grep_search and friends",
  wires: ["chat"],
  original: { name: "Gemini CLI", source: "npm:@google/gemini-cli", version: "0.61.0" },
  matches: (model) => /gemini/i.test(model),
};
