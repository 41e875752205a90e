import type { HarnessInfo } from "../types.js";

export const miniSweAgentInfo: HarnessInfo = {
  id: "mini-swe-agent",
  title: "mini-swe-agent",
  description: "mini-swe-agent: one bash block per reply, no tool schema (for models without tool calls)",
  wires: ["chat"],
  matches: () => false,
  // Not v2: its default is a native tool call, and its text protocol is a side config with
  // another fence tag; this harness exists for the v1 `bash`-block protocol (docs/harnesses.md).
  original: {
    name: "mini-swe-agent",
    source: "github:SWE-agent/mini-swe-agent@v1.17.5 src/minisweagent/config/mini.yaml",
    version: "1.17.5",
  },
};
