import type { HarnessInfo } from "../types.js";

/**
 * Kimi CLI, Moonshot's earlier Python agent (K2 models were tuned on it). Never chosen
 * automatically: upstream Open Interpreter sends every Kimi/Moonshot model to `kimi-code`, its
 * successor, and so do we; `kimi-cli` is picked by name.
 */
export const kimiCliInfo: HarnessInfo = {
  id: "kimi-cli",
  title: "Kimi CLI",
  description:
    "Moonshot's earlier Python Kimi CLI: Shell, ReadFile, WriteFile, StrReplaceFile, Glob, Grep, SetTodoList, tasks, Agent, plan mode, with its <system> result lines",
  wires: ["chat"],
  original: {
    name: "Kimi CLI",
    source: "github:MoonshotAI/kimi-cli@4a550eff src/kimi_cli (release 1.49.0)",
    version: "1.49.0",
  },
  matches: () => false,
};
