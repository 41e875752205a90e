import type { HarnessInfo } from "../types.js";

export const qwenCodeInfo: HarnessInfo = {
  id: "qwen-code",
  title: "Qwen Code",
  description: "Qwen Code: read_file, edit, run_shell_command and context reminders in the first message",
  wires: ["chat"],
  original: { name: "Qwen Code", source: "npm:@qwen-code/qwen-code", version: "0.24.4" },
  matches: (model) => {
    const id = model.toLowerCase();
    return id.includes("qwen") || id.startsWith("qwq") || id.includes("/qwq");
  },
};
