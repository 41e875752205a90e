import type { HarnessInfo } from "../types.js";

export const kimiCodeInfo: HarnessInfo = {
  id: "kimi-code",
  title: "Kimi Code",
  description:
    "Moonshot Kimi Code: Bash, Read, Write, Edit, Glob, Grep, TodoList with Kimi's caps and reminders",
  wires: ["chat"],
  matches: (model) => /kimi|moonshot/i.test(model),
};
