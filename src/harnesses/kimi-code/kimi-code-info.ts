import type { HarnessInfo } from "../types.js";

export const kimiCodeInfo: HarnessInfo = {
  id: "kimi-code",
  title: "Kimi Code",
  description:
    "Moonshot Kimi Code: Bash, Read, Write, Edit, Glob, Grep, TodoList with Kimi's caps and reminders",
  wires: ["chat"],
  original: { name: "Kimi Code", source: "npm:@moonshot-ai/kimi-code", version: "2.1.0" },
  matches: (model) => /kimi|moonshot/i.test(model),
};
