import { renderChatMessages } from "../shared/chat-messages.js";
import { toolSpecs } from "../shared/tool-specs.js";
import type { Harness } from "../types.js";
import { minimalInfo } from "./minimal-info.js";
import prompt from "./prompt.md";

/**
 * Upstream Open Interpreter's `minimal` harness (rust-v0.0.40 `harness/minimal.rs`), for small
 * models and small windows: a two-line system prompt, the conversation without the native
 * harness's context messages (AGENTS.md, environment, permissions), and the native harness's
 * tools for this model flattened to plain chat function tools, a freeform tool (Codex's
 * grammar `apply_patch`) left out as `build_tools` leaves it. `native` is the harness whose
 * tools it offers (Codex, as upstream), passed in so this folder imports no other harness.
 */
export function minimalHarness(native: Harness): Harness {
  return {
    ...minimalInfo,
    ...(native.output ? { output: native.output } : {}),
    ...(native.compaction ? { compaction: native.compaction } : {}),
    open(opened) {
      const nativeSession = native.open(opened);
      // What the native harness sends as plain functions for this model: the rest is not flattened.
      const functions = new Set(
        nativeSession
          .render({ history: [], tools: nativeSession.tools, ctx: opened })
          .tools.filter((spec) => spec.type === "function")
          .map((spec) => spec.name),
      );
      const own = nativeSession.tools.filter((tool) => functions.has(tool.name));
      const ownNames = new Set(own.map((tool) => tool.name));
      return {
        tools: own,
        render({ history, tools }) {
          // This session's tools and the MCP tools; nothing of the native tools it left out.
          const offered = tools.filter(
            (tool) => ownNames.has(tool.name) || !nativeSession.tools.includes(tool),
          );
          return {
            system: [{ type: "text", text: prompt.trimEnd() }],
            messages: renderChatMessages(history, { tools: offered, harness: "minimal" }),
            tools: toolSpecs(offered),
          };
        },
      };
    },
  };
}
