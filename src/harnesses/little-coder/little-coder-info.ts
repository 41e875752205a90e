import type { HarnessInfo } from "../types.js";

export const littleCoderInfo: HarnessInfo = {
  id: "little-coder",
  title: "little-coder",
  description:
    "little-coder: pi's four tools with a write guard, glob, web, evidence and a persistent shell session",
  wires: ["chat"],
  // Upstream routes no model family to it: it is chosen by name.
  matches: () => false,
  original: {
    name: "little-coder",
    source:
      "github:itayinbarr/little-coder@v1.14.0 (npm little-coder, on pi 0.83) as openinterpreter rust-v0.0.40 harness/little_coder.rs sends it",
    version: "1.14.0",
  },
};
