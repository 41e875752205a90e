import { z } from "zod";
import { askQuestions } from "../../../tools/ask/ask-questions.js";
import type { Tool } from "../../../tools/types.js";
import { kimiAnswers, kimiQuestions } from "../../shared/kimi-questions.js";
import description from "./ask-user-question.md";
import { askUserQuestionSchema } from "./plan-schemas.js";

const Args = z.object({
  questions: z
    .array(
      z.object({
        question: z.string().min(1),
        header: z.string().default(""),
        options: z
          .array(z.object({ label: z.string().min(1), description: z.string().default("") }))
          .min(2)
          .max(4),
        multi_select: z.boolean().default(false),
      }),
    )
    .min(1)
    .max(4),
  background: z.boolean().default(false),
});
type Args = z.infer<typeof Args>;

const UNIQUENESS =
  "Question texts must be unique across questions, and option labels must be unique within each question.";
const DISMISSED = "User dismissed the question without answering.";
/** 2.1.0's answer where the client cannot show questions (here: a session nobody attends). */
export const QUESTIONS_UNSUPPORTED =
  "The connected client does not support interactive questions. Do NOT call this tool again. Ask the user directly in your text response instead.";

/**
 * Kimi Code 2.1.0 `AskUserQuestion`: answers as 2.1.0's JSON, keyed by question text (several
 * labels joined by ", "); a dismissal is its empty answers with a note. `background` is accepted
 * and asked in the foreground: a question task that answers in a later turn is not ported.
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
      const duplicate = uniquenessError(args.questions);
      if (duplicate) return { output: duplicate, isError: true };
      const outcome = await askQuestions({
        questions: kimiQuestions(args.questions),
        user: ctx.user,
        callId: ctx.callId ?? "",
        signal: ctx.signal,
      });
      if (outcome.type === "unavailable") return { output: QUESTIONS_UNSUPPORTED, isError: true };
      if (outcome.type !== "answered") return { output: JSON.stringify({ answers: {}, note: DISMISSED }) };
      const answers = kimiAnswers(outcome);
      return { output: JSON.stringify({ answers }) };
    },
  };
}

function uniquenessError(questions: Args["questions"]): string | undefined {
  const seen = new Set<string>();
  for (const q of questions) {
    if (seen.has(q.question))
      return `Invalid questions: duplicate question text ${JSON.stringify(q.question)}. ${UNIQUENESS} Rephrase the duplicates and call the tool again.`;
    seen.add(q.question);
    const labels = new Set<string>();
    for (const option of q.options) {
      if (labels.has(option.label))
        return `Invalid questions: duplicate option label ${JSON.stringify(option.label)} in question ${JSON.stringify(q.question)}. ${UNIQUENESS} Rephrase the duplicates and call the tool again.`;
      labels.add(option.label);
    }
  }
  return undefined;
}
