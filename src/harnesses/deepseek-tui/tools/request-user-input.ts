import { z } from "zod";
import { askQuestions, NO_USER_TEXT } from "../../../tools/ask/ask-questions.js";
import type { Tool } from "../../../tools/types.js";
import { failed, invalidInput } from "../tool-result.js";
import { requestUserInputSchema } from "../tool-schemas.js";
import description from "./request-user-input.md";

const Args = z.looseObject({
  questions: z.array(
    z.looseObject({
      header: z.string(),
      id: z.string(),
      question: z.string(),
      options: z.array(z.looseObject({ label: z.string(), description: z.string() })),
    }),
  ),
});
type Args = z.infer<typeof Args>;

/** CodeWhale's checks (`UserInputRequest::validate`), first failure wins. */
function problem(args: Args): string | undefined {
  if (args.questions.length === 0) return "request_user_input.questions must be non-empty";
  if (args.questions.length > 3) return "request_user_input.questions must contain 1 to 3 items";
  for (const q of args.questions) {
    if (!q.header.trim()) return "request_user_input.questions.header cannot be empty";
    if (!q.id.trim()) return "request_user_input.questions.id cannot be empty";
    if (!q.question.trim()) return "request_user_input.questions.question cannot be empty";
    if (q.options.length < 2 || q.options.length > 3)
      return "request_user_input.questions.options must contain 2 or 3 items";
    for (const o of q.options) {
      if (!o.label.trim()) return "request_user_input option label cannot be empty";
      if (!o.description.trim()) return "request_user_input option description cannot be empty";
    }
  }
  return undefined;
}

/**
 * CodeWhale `request_user_input` (0.8.44 `tools/user_input.rs`, answered by its engine): one
 * choice per question, the user's own text as the `Other` answer; the answers as indented JSON
 * `{answers: [{id, label, value}]}`. A dismissal is its `User input cancelled` error.
 */
export function requestUserInputTool(): Tool<Args> {
  return {
    name: "request_user_input",
    description: description.trimEnd(),
    kind: "think",
    capability: "other",
    parameters: requestUserInputSchema,
    schema: Args,
    preview: async (args) => ({ title: args.questions.map((q) => q.header || q.question).join(", ") }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const invalid = problem(args);
      if (invalid) return invalidInput("request_user_input", invalid);
      const outcome = await askQuestions({
        questions: args.questions.map((q) => ({
          id: q.id,
          question: q.question,
          header: q.header,
          options: q.options,
          multiSelect: false,
        })),
        user: ctx.user,
        callId: ctx.callId ?? "",
        signal: ctx.signal,
      });
      if (outcome.type === "unavailable") return { output: NO_USER_TEXT, isError: true };
      if (outcome.type === "cancelled") return failed("Request cancelled while awaiting user input");
      if (outcome.type === "declined") return failed("User input cancelled");
      const answers = outcome.answers.map((a) => {
        const label = a.selected[0];
        return label !== undefined
          ? { id: a.id, label, value: label }
          : { id: a.id, label: "Other", value: (a.other ?? "").trim() };
      });
      return { output: JSON.stringify({ answers }, null, 2) };
    },
  };
}
