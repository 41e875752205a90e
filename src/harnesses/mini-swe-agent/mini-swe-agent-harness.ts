import os from "node:os";
import { commandOf } from "../shared/adopt-call.js";
import { renderTextMessages } from "../shared/text-messages.js";
import type { Harness } from "../types.js";
import { bashTool } from "./bash-tool.js";
import instance from "./instance.md";
import { miniSweAgentInfo } from "./mini-swe-agent-info.js";
import { parseAction } from "./parse-action.js";
import system from "./system.md";

/** Python's `platform.uname()` fields the instance template prints: system release version machine. */
export function systemInformation(): string {
  return `${os.type()} ${os.release()} ${os.version()} ${os.machine()}`;
}

/**
 * mini-swe-agent's instance template (v1.17.5 `config/mini.yaml`) around the user's task. On
 * macOS its Jinja template inserts a note about `sed -i ''`; elsewhere the whitespace control
 * joins the heading and the code fence (`### Edit files with sed:```bash`), kept as rendered.
 */
export function instancePrompt(task: string, info = systemInformation()): string {
  const sedNote = info.startsWith("Darwin ")
    ? "<important>\nYou are on macOS. In all the examples below, use `sed -i ''` instead of `sed -i`.\n</important>"
    : "";
  return (
    instance
      .trimEnd()
      .split("{{system_information}}")
      .join(info)
      // The slot sits on the heading line; the blank line after it only keeps the Markdown tidy.
      .split("{{sed_note}}\n\n")
      .join(sedNote)
      .split("{{task}}")
      .join(task)
  );
}

/**
 * mini-swe-agent v1 (SWE-agent/mini-swe-agent `agents/default.py` + `config/mini.yaml`): no
 * tool schema at all; every reply holds exactly one ```bash block, the result comes back as a
 * `<returncode>`/`<output>` user message, and `echo COMPLETE_TASK_AND_SUBMIT_FINAL_OUTPUT`
 * submits.
 */
export const miniSweAgentHarness: Harness = {
  ...miniSweAgentInfo,
  open() {
    const tools = [bashTool()];
    return {
      tools,
      render({ history }) {
        const messages = renderTextMessages(history, {
          harness: "mini-swe-agent",
          firstUser: (task) => instancePrompt(task),
          foreignCall(call) {
            const command = commandOf(call);
            return command !== undefined
              ? `\`\`\`bash\n${command}\n\`\`\``
              : `[called ${call.name} with ${call.arguments}]`;
          },
          observations: (results) => results.map((r) => r.output).join("\n\n"),
        });
        return { system: [{ type: "text", text: system.trimEnd() }], messages, tools: [] };
      },
    };
  },
  parse: (text, options) => parseAction(text, options),
};
