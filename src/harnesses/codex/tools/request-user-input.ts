import { z } from "zod";
import { askQuestions, NO_USER_TEXT } from "../../../tools/ask/ask-questions.js";
import type { Tool } from "../../../tools/types.js";
import description from "./request-user-input.md";

/** 0.171's schema (keys in its BTreeMap order), our descriptions; sent with `strict: false`. */
export const requestUserInputSchema = {
  type: "object",
  properties: {
    questions: {
      type: "array",
      description: "The questions to show the user; one is best, three at most",
      items: {
        type: "object",
        properties: {
          header: {
            type: "string",
            description: "A short label shown above the question (12 characters at most).",
          },
          id: { type: "string", description: "A stable snake_case id the answer is keyed by." },
          options: {
            type: "array",
            description:
              'Two or three mutually exclusive choices, the recommended one first with "(Recommended)" in its label. Leave out an "Other" choice: the user can always type their own answer.',
            items: {
              type: "object",
              properties: {
                description: {
                  type: "string",
                  description: "One sentence on what choosing this means or leads to.",
                },
                label: { type: "string", description: "The choice, in 1-5 words." },
              },
              required: ["label", "description"],
              additionalProperties: false,
            },
          },
          question: { type: "string", description: "The question itself, in one sentence." },
        },
        required: ["id", "header", "question", "options"],
        additionalProperties: false,
      },
    },
  },
  required: ["questions"],
  additionalProperties: false,
};

const Args = z.object({
  questions: z.array(
    z.object({
      id: z.string(),
      header: z.string(),
      question: z.string(),
      options: z.array(z.object({ label: z.string(), description: z.string() })).optional(),
    }),
  ),
});
type Args = z.infer<typeof Args>;

const CANCELLED = "request_user_input was cancelled before receiving a response";

/**
 * Codex 0.171 `request_user_input`: available in Plan mode (our plan mode) and refused in every
 * other as Codex refuses it in Default mode. Answers are Codex's JSON, `{"answers": {"<id>":
 * {"answers": [...]}}}`, with the user's own text beside the chosen labels; a dismissal is
 * Codex's cancellation text.
 */
export function requestUserInputTool(): Tool<Args> {
  return {
    name: "request_user_input",
    description,
    kind: "think",
    capability: "other",
    parameters: requestUserInputSchema,
    schema: Args,
    preview: async (args) => ({ title: args.questions.map((q) => q.header || q.question).join(", ") }),
    access: () => ({ type: "none" }),
    async execute(args, ctx) {
      if (!ctx.plan?.active())
        return { output: "request_user_input is unavailable in Default mode", isError: true };
      if (args.questions.some((q) => !q.options || q.options.length === 0))
        return { output: "request_user_input requires non-empty options for every question", isError: true };
      const outcome = await askQuestions({
        questions: args.questions.map((q) => ({
          id: q.id,
          question: q.question,
          ...(q.header ? { header: q.header } : {}),
          options: q.options ?? [],
          multiSelect: false,
        })),
        user: ctx.user,
        callId: ctx.callId ?? "",
        signal: ctx.signal,
      });
      if (outcome.type === "unavailable") return { output: NO_USER_TEXT, isError: true };
      if (outcome.type !== "answered") return { output: CANCELLED, isError: true };
      const answers = Object.fromEntries(
        outcome.answers.map((a) => [a.id, { answers: [...a.selected, ...(a.other ? [a.other] : [])] }]),
      );
      return { output: JSON.stringify({ answers }) };
    },
  };
}
