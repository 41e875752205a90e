import { z } from "zod";
import type { Tool } from "../../tools/types.js";
import { formatObservation } from "./observation.js";
import review from "./review.md";

const Args = z.looseObject({});
type Args = z.infer<typeof Args>;

/**
 * Every change in the workspace as one patch, new files included, without staging anything
 * (the original's `git add -A && git diff --cached` would leave the user's index changed).
 */
const DIFF =
  "{ git diff HEAD --; git ls-files --others --exclude-standard -z | xargs -0 -r -n1 git diff --no-index -- /dev/null; } 2>/dev/null";

/** The review round's message (`SUBMIT_REVIEW_MESSAGES` of `config/default.yaml`) around the patch. */
export function reviewText(diff: string): string {
  return `${review.trimEnd().replace("{{diff}}", () => diff)}\n`;
}

/**
 * The first `submit` of a task (SWE-agent's `review_on_submit_m` bundle): the changes so far
 * and the steps to check before submitting, answered as a step; the next `submit` ends the task.
 */
export function submitTool(): Tool<Args> {
  return {
    name: "submit",
    description: "submits the current file",
    kind: "read",
    capability: "other",
    parameters: { type: "object", properties: {} },
    schema: Args,
    preview: async () => ({ title: "submit" }),
    access: (_args, ctx) => ({ type: "read", paths: [ctx.cwd] }),
    async execute(_args, ctx) {
      const result = await ctx.exec.run({
        command: DIFF,
        cwd: ctx.cwd,
        timeoutMs: 30_000,
        signal: ctx.signal,
      });
      return { output: formatObservation(reviewText(result.output.replace(/\n$/, ""))), isError: false };
    },
  };
}
