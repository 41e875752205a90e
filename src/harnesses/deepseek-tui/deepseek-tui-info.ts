import type { HarnessInfo } from "../types.js";

export const deepseekTuiInfo: HarnessInfo = {
  id: "deepseek-tui",
  title: "DeepSeek-TUI",
  description:
    "DeepSeek-TUI (CodeWhale): exec_shell with background tasks, read_file, write_file, edit_file, apply_patch, grep_files, file_search, list_dir, git_*, fetch_url, web_search, checklist_*, update_plan and its layered prompt",
  wires: ["chat"],
  original: { name: "CodeWhale (DeepSeek-TUI)", source: "github:Hmbown/CodeWhale", version: "0.8.44" },
  // Upstream routes DeepSeek models to claude-code-bare, not here: a product decision it
  // documents as giving DeepSeek its best results. This harness is chosen explicitly.
  matches: () => false,
};
