import type { HarnessInfo } from "../types.js";

export const qwenCodeInfo: HarnessInfo = {
  id: "qwen-code",
  title: "Qwen Code",
  description: "Qwen Code: read_file, edit, run_shell_command and a startup-context turn",
  wires: ["chat"],
  matches: (model) => {
    const id = model.toLowerCase();
    return id.includes("qwen") || id.startsWith("qwq") || id.includes("/qwq");
  },
};
