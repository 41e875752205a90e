import type { HarnessInfo } from "../types.js";

export const miniSweAgentInfo: HarnessInfo = {
  id: "mini-swe-agent",
  title: "mini-swe-agent",
  description: "mini-swe-agent: one bash block per reply, no tool schema (for models without tool calls)",
  wires: ["chat"],
  matches: () => false,
};
