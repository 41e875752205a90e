import type { HarnessInfo } from "../types.js";

export const piInfo: HarnessInfo = {
  id: "pi",
  title: "pi",
  description: "pi: four tools (read, bash, edit, write) and a short prompt",
  wires: ["chat"],
  matches: () => false,
};
