import type { Question, QuestionOutcome } from "../../tools/ask/types.js";

/** A question as both Kimi agents take it (`question`, `header`, `options`, `multi_select`). */
export interface KimiQuestion {
  question: string;
  header: string;
  options: Array<{ label: string; description: string }>;
  multi_select: boolean;
}

/** Kimi's questions in the shared executor's terms, keyed by their text (Kimi keys answers by it). */
export function kimiQuestions(questions: readonly KimiQuestion[]): Question[] {
  return questions.map((q) => ({
    id: q.question,
    question: q.question,
    ...(q.header ? { header: q.header } : {}),
    options: q.options.map((o) => ({
      label: o.label,
      ...(o.description ? { description: o.description } : {}),
    })),
    multiSelect: q.multi_select,
  }));
}

/** Kimi's `answers` object: each answered question's labels (and typed text) joined by ", ". */
export function kimiAnswers(outcome: QuestionOutcome): Record<string, string> {
  if (outcome.type !== "answered") return {};
  return Object.fromEntries(
    outcome.answers.map((a) => [a.question, [...a.selected, ...(a.other ? [a.other] : [])].join(", ")]),
  );
}
