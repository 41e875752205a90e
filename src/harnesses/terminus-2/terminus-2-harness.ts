import os from "node:os";
import { commandOf } from "../shared/adopt-call.js";
import { renderTextMessages } from "../shared/text-messages.js";
import type { Harness } from "../types.js";
import { limitOutput } from "./limit-output.js";
import { parseReply } from "./parse-reply.js";
import prompt from "./prompt.md";
import { terminalTool } from "./terminal-tool.js";
import { terminus2Info } from "./terminus-2-info.js";

/** Terminus 2's sampling temperature (its `LiteLLM` default). */
export const TEMPERATURE = 0.7;

/**
 * The pane as it is before the first keystroke: the prompt the terminal's shell shows
 * (`user@host:dir$ `, the home shown as `~` as bash's `\w` does) on the first of 40 lines,
 * trailing spaces cut as tmux cuts them.
 */
export function initialScreen(cwd: string, who = { user: userName(), host: os.hostname() }): string {
  const home = os.homedir();
  const dir = cwd === home ? "~" : cwd.startsWith(`${home}/`) ? `~${cwd.slice(home.length)}` : cwd;
  const sign = who.user === "root" ? "#" : "$";
  return `Current Terminal Screen:\n${who.user}@${who.host.split(".")[0]}:${dir}${sign}\n${"\n".repeat(39)}`;
}

/** The name bash's `\u` shows, its own words for a uid without a passwd entry (some containers). */
function userName(): string {
  try {
    return os.userInfo().username;
  } catch {
    return "I have no name!";
  }
}

/** The first prompt: the protocol, the task and the terminal's state. */
export function initialPrompt(instruction: string, terminalState: string): string {
  return prompt.split("{{instruction}}").join(instruction).split("{{terminal_state}}").join(terminalState);
}

/** A call made under another harness, written as a Terminus 2 reply would have typed it. */
function foreignReply(call: Parameters<typeof commandOf>[0]): string {
  const command = commandOf(call);
  if (command === undefined) return `[called ${call.name} with ${call.arguments}]`;
  const reply = { analysis: "", plan: "", commands: [{ keystrokes: `${command}\n`, duration: 1.0 }] };
  return JSON.stringify(reply, null, 2);
}

/**
 * Terminal-Bench's Terminus 2 (terminal-bench 0.2.18, `terminal_bench/agents/terminus_2`, the
 * JSON plain parser): no system message and no tool schema; the first user message is the
 * protocol with the task and the terminal's screen; each reply is JSON whose commands are
 * typed into a persistent tmux pane; the next user message is the pane's new output (10 kB at
 * most), or the parser's errors; `task_complete` must be sent twice in a row.
 */
export const terminus2Harness: Harness = {
  ...terminus2Info,
  open(ctx) {
    const tools = [terminalTool()];
    return {
      tools,
      render({ history }) {
        const messages = renderTextMessages(history, {
          harness: "terminus-2",
          firstUser: (task) => initialPrompt(task, initialScreen(ctx.cwd)),
          foreignCall: foreignReply,
          // Own results are the next prompt already; another harness's output is capped as the pane's.
          observations: (results) =>
            results
              .map((r) => (r.call.harness === "terminus-2" ? r.output : limitOutput(r.output)))
              .join("\n\n"),
        });
        return { system: [], messages, tools: [], knobs: { temperature: TEMPERATURE } };
      },
    };
  },
  parse: (text, options) => parseReply(text, options),
};
