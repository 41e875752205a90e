import type { HarnessInfo } from "../types.js";

export const opencodeInfo: HarnessInfo = {
  id: "opencode",
  title: "opencode",
  description:
    "opencode: bash, edit, glob, grep, read, skill, todowrite, webfetch, write and its default prompt",
  wires: ["chat"],
  original: { name: "opencode", source: "npm:opencode-ai", version: "1.18.33" },
  matches: () => false,
};
