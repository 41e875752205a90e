import type { HarnessInfo } from "../types.js";

export const minimalInfo: HarnessInfo = {
  id: "minimal",
  title: "Minimal",
  description:
    "Open Interpreter's minimal harness: a two-line prompt and the native tools as plain chat tools",
  wires: ["chat"],
  matches: () => false,
  original: {
    name: "Open Interpreter minimal",
    source: "github:openinterpreter/openinterpreter@rust-v0.0.40 codex-rs/core/src/harness/minimal.rs",
    version: "0.0.40",
  },
};
