import type { HarnessInfo } from "../types.js";

export const terminus2Info: HarnessInfo = {
  id: "terminus-2",
  title: "Terminus 2",
  description: "Terminal-Bench's Terminus 2: JSON keystrokes into a persistent tmux terminal; no tool schema",
  wires: ["chat"],
  matches: () => false,
  original: {
    name: "Terminus 2 (terminal-bench)",
    source: "pypi:terminal-bench@0.2.18 terminal_bench/agents/terminus_2 (JSON plain parser)",
    version: "0.2.18",
  },
};
