import { piChatExtra, piCompaction, piMessages } from "../shared/pi-core/pi-request.js";
import { bashTool } from "../shared/pi-core/tools/bash.js";
import { editTool } from "../shared/pi-core/tools/edit.js";
import { readTool } from "../shared/pi-core/tools/read.js";
import { writeTool } from "../shared/pi-core/tools/write.js";
import { toolSpecs } from "../shared/tool-specs.js";
import type { Harness } from "../types.js";
import { piInfo } from "./pi-info.js";
import { piSystemPrompt } from "./system-prompt.js";

/** pi's lean coding agent: read, bash, edit, write and a prompt under a thousand tokens. */
export const piHarness: Harness = {
  ...piInfo,
  compaction: piCompaction,
  open(ctx) {
    const tools = [readTool(), bashTool({ scratchDir: ctx.scratchDir }), editTool(), writeTool()];
    return {
      tools,
      render({ history, tools, ctx }) {
        return {
          system: [{ type: "text", text: piSystemPrompt(ctx) }],
          messages: piMessages(history, { tools, harness: "pi" }),
          tools: toolSpecs(tools, { strict: false }),
          knobs: { extra: { chat: piChatExtra } },
        };
      },
    };
  },
};
