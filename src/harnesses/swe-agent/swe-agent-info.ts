import type { HarnessInfo } from "../types.js";

export const sweAgentInfo: HarnessInfo = {
  id: "swe-agent",
  title: "SWE-agent",
  description: "SWE-agent: a DISCUSSION, then one command in a fenced block; no tool schema",
  wires: ["chat"],
  matches: () => false,
  original: {
    name: "SWE-agent",
    source:
      "github:SWE-agent/SWE-agent@v1.1.0 config/default.yaml + sweagent/tools/parsing.py (thought_action)",
    version: "1.1.0",
  },
};
