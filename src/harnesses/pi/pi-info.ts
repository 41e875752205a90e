import type { HarnessInfo } from "../types.js";

export const piInfo: HarnessInfo = {
  id: "pi",
  title: "pi",
  description: "pi: four tools (read, bash, edit, write) and a short prompt",
  wires: ["chat"],
  original: { name: "pi", source: "npm:@mariozechner/pi-coding-agent", version: "0.73.1" },
  matches: () => false,
};
