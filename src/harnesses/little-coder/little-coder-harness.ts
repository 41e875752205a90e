import { piChatExtra, piCompaction, piMessages } from "../shared/pi-core/pi-request.js";
import { bashTool } from "../shared/pi-core/tools/bash.js";
import { editTool } from "../shared/pi-core/tools/edit.js";
import { readTool } from "../shared/pi-core/tools/read.js";
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
  compaction: piCompaction,
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
          messages: piMessages(history, { tools, harness: "little-coder" }),
          tools: toolSpecs(tools, { strict: false }),
          // pi's openai-completions request, with the temperature little-coder's profile sets on it.
          knobs: {
            temperature: TEMPERATURE,
            extra: { chat: piChatExtra },
          },
        };
      },
    };
  },
};
