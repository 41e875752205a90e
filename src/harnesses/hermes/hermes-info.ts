import type { HarnessInfo } from "../types.js";

export const hermesInfo: HarnessInfo = {
  id: "hermes",
  title: "Hermes (text tool calls)",
  description: "Codex tools as <tool_call> text, for models or servers without native tool calling",
  wires: ["chat"],
  matches: () => false,
};
