import { PI_MAX_TOKENS, piHarness } from "../pi/pi-harness.js";
import { bashTool } from "../pi/tools/bash.js";
import { editTool } from "../pi/tools/edit.js";
import { readTool } from "../pi/tools/read.js";
import { renderChatMessages } from "../shared/chat-messages.js";
import { toolSpecs } from "../shared/tool-specs.js";
import type { Harness } from "../types.js";
import { littleCoderInfo } from "./little-coder-info.js";
import { littleCoderSystemPrompt } from "./system-prompt.js";
import { evidenceAddTool } from "./tools/evidence-add.js";
import { evidenceGetTool } from "./tools/evidence-get.js";
import { evidenceListTool } from "./tools/evidence-list.js";
import { EvidenceStore } from "./tools/evidence-store.js";
import { globTool } from "./tools/glob.js";
import { ShellPane } from "./tools/shell-pane.js";
import { shellSessionTool } from "./tools/shell-session.js";
import { shellSessionCwdTool } from "./tools/shell-session-cwd.js";
import { shellSessionResetTool } from "./tools/shell-session-reset.js";
import { webfetchTool } from "./tools/webfetch.js";
import { websearchTool } from "./tools/websearch.js";
import { writeTool } from "./tools/write.js";

/** The sampling temperature of little-coder's default model profile (`.pi/settings.json`). */
const TEMPERATURE = 0.3;

/**
 * little-coder: pi run with its own prompt and extensions. pi's read, bash and edit as they
 * are, pi's write behind the write guard, then the extensions' tools in the order
 * openinterpreter sends them (the browser tools are pending, see docs/harnesses.md). The
 * evidence and the shell session belong to the session: they live while the harness is open.
 */
export const littleCoderHarness: Harness = {
  ...littleCoderInfo,
  // pi's compaction, which little-coder turns on.
  compaction: piHarness.compaction,
  open(ctx) {
    const evidence = new EvidenceStore();
    const pane = new ShellPane();
    const tools = [
      readTool(),
      bashTool({ scratchDir: ctx.scratchDir }),
      editTool(),
      writeTool(),
      evidenceAddTool(evidence),
      evidenceGetTool(evidence),
      evidenceListTool(evidence),
      globTool(),
      webfetchTool(),
      websearchTool(),
      shellSessionTool(pane),
      shellSessionCwdTool(pane),
      shellSessionResetTool(pane),
    ];
    return {
      tools,
      render({ history, tools, ctx }) {
        return {
          system: [{ type: "text", text: littleCoderSystemPrompt(ctx, history) }],
          // pi sends user text as a parts array, never as a plain string.
          messages: renderChatMessages(history, { tools, harness: "little-coder" }).map((message) =>
            message.role === "user" ? { ...message, asParts: true } : message,
          ),
          tools: toolSpecs(tools, { strict: false }),
          // pi's openai-completions request, with the temperature little-coder's profile sets on it.
          knobs: {
            temperature: TEMPERATURE,
            extra: { chat: { store: false, max_completion_tokens: PI_MAX_TOKENS } },
          },
        };
      },
    };
  },
};
