import type { HarnessInfo } from "../types.js";

/**
 * ZCode is Z.AI's desktop agent (not published to a registry): upstream Open Interpreter 0.0.40
 * models its 0.14.8 CLI agent in `zcode.rs` and `zcode_tools.json`, and that is the reference.
 * Messages only, as upstream routes it: on other wires upstream falls back to its generic
 * transport, so a GLM model on Chat gets the default harness here too.
 */
export const zcodeInfo: HarnessInfo = {
  id: "zcode",
  title: "ZCode",
  description:
    "Z.AI's ZCode for GLM models: Agent, AskUserQuestion, Bash, Edit, plan mode, Read, Skill, todos, WebFetch, Write, SendMessage",
  wires: ["messages"],
  original: {
    name: "ZCode",
    source: "github:openinterpreter/openinterpreter@rust-v0.0.40 codex-rs/core/src/harness/zcode.rs",
    version: "0.14.8",
  },
  matches: (model) => /glm/i.test(model),
};
