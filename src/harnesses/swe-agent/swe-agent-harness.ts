import { commandOf } from "../shared/adopt-call.js";
import { renderTextMessages } from "../shared/text-messages.js";
import type { Harness } from "../types.js";
import { bashTool } from "./bash-tool.js";
import instance from "./instance.md";
import { formatObservation } from "./observation.js";
import { parseAction } from "./parse-action.js";
import { dropRecoveredRetries } from "./recovered-retries.js";
import { strReplaceEditorTool } from "./str-replace-editor.js";
import { submitTool } from "./submit-tool.js";
import { sweAgentInfo } from "./swe-agent-info.js";
import system from "./system.md";

/** SWE-agent's instance template around the user's task, the workspace as `working_dir`. */
export function instancePrompt(task: string, workingDir: string): string {
  return instance
    .trimEnd()
    .split("{{working_dir}}")
    .join(workingDir)
    .split("{{problem_statement}}")
    .join(task);
}

/**
 * SWE-agent 1.1.0 as upstream Open Interpreter runs it: `config/default.yaml`'s templates
 * (a one-line system message, the task inside the instance template, `OBSERVATION:` steps)
 * with the `thought_action` protocol: no tool schema, the reply's last code block is the
 * command, a reply without one gets the parser's correction; `submit` shows the review round of
 * `review_on_submit_m` once, then ends the task. Sampled as SWE-agent samples
 * (temperature 0, top_p 1).
 */
export const sweAgentHarness: Harness = {
  ...sweAgentInfo,
  open(ctx) {
    const tools = [bashTool(), strReplaceEditorTool(), submitTool()];
    return {
      tools,
      render({ history }) {
        const messages = renderTextMessages(dropRecoveredRetries(history), {
          harness: "swe-agent",
          firstUser: (task) => instancePrompt(task, ctx.cwd),
          foreignCall(call) {
            const command = commandOf(call);
            return command !== undefined
              ? `\`\`\`\n${command}\n\`\`\``
              : `[called ${call.name} with ${call.arguments}]`;
          },
          // Own results are already the step message; another harness's output gets the template.
          observations: (results) =>
            results
              .map((r) => (r.call.harness === "swe-agent" ? r.output : formatObservation(r.output)))
              .join("\n\n"),
        });
        return {
          system: [{ type: "text", text: system.trimEnd() }],
          messages,
          tools: [],
          knobs: { temperature: 0, topP: 1 },
        };
      },
    };
  },
  parse: (text, options) => parseAction(text, options),
};
