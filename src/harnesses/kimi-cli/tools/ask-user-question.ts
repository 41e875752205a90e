import { z } from "zod";
import { askQuestions } from "../../../tools/ask/ask-questions.js";
import type { Tool } from "../../../tools/types.js";
import { kimiAnswers, kimiQuestions } from "../../shared/kimi-questions.js";
import { pyJson } from "../py-json.js";
import { kimiError, kimiResult } from "../result-builder.js";
import { askUserQuestionSchema } from "../tool-schemas.js";
import description from "./ask-user-question.md";

const Args = z.object({
  questions: z
    .array(
      z.object({
        question: z.string(),
        header: z.string().default(""),
        options: z
          .array(z.object({ label: z.string(), description: z.string().default("") }))
          .min(2)
          .max(4),
        multi_select: z.boolean().default(false),
      }),
    )
    .min(1)
    .max(4),
});
type Args = z.infer<typeof Args>;

/** 1.49.0's answer where the client cannot ask (here: a session nobody attends). */
export const QUESTIONS_UNSUPPORTED =
  "The connected client does not support interactive questions. Do NOT call this tool again. Ask the user directly in your text response instead.";

/**
 * Kimi CLI 1.49.0 `AskUserQuestion` (`tools/ask_user/__init__.py`): the answers as Python's JSON,
 * keyed by question text (several labels joined by ", "), under "User has answered."; a dismissal
 * is its empty answers with a note.
 */
export function askUserQuestionTool(): Tool<Args> {
  return {
    name: "AskUserQuestion",
    description,
    kind: "think",
    capability: "other",
    parameters: askUserQuestionSchema,
    schema: Args,
    preview: async () => ({ title: "Asking user questions" }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      const outcome = await askQuestions({
        questions: kimiQuestions(args.questions),
        user: ctx.user,
        callId: ctx.callId ?? "",
        signal: ctx.signal,
      });
      if (outcome.type === "unavailable") return kimiError(QUESTIONS_UNSUPPORTED);
      const answers = kimiAnswers(outcome);
      if (Object.keys(answers).length === 0)
        return kimiResult({
          message: "User dismissed the question without answering.",
          output: pyJson({ answers: {}, note: "User dismissed the question without answering." }),
        });
      return kimiResult({ message: "User has answered.", output: pyJson({ answers }) });
    },
  };
}
