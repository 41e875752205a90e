import type { FormField, Question, QuestionAnswer, QuestionOutcome, UserPort } from "./types.js";

/**
 * Asks the user a call's questions the best way the editor allows: one elicitation form where
 * it renders forms (each question a choice, with a free-text field beside it, as the originals
 * offer "Other"), else one permission-style request per question whose buttons are its options
 * (one choice each; "Skip" leaves it unanswered), else nobody can answer.
 */
export async function askQuestions(o: {
  questions: Question[];
  user: UserPort | undefined;
  callId: string;
  signal: AbortSignal;
}): Promise<QuestionOutcome> {
  const { user, questions, signal } = o;
  if (!user) return { type: "unavailable" };
  if (signal.aborted) return { type: "cancelled" };
  const outcome = user.forms ? await viaForm(user) : await viaChoices(user);
  if (outcome.type === "answered" && outcome.answers.length === 0) return { type: "declined" };
  return signal.aborted ? { type: "cancelled" } : outcome;

  async function viaForm(port: UserPort): Promise<QuestionOutcome> {
    const fields = questions.flatMap((q, i): FormField[] => [
      {
        id: `q${i}`,
        title: q.header || q.question,
        ...(q.header ? { description: q.question } : {}),
        choices: q.options.map((option) => ({
          value: option.label,
          title: option.label,
          ...(option.description ? { description: option.description } : {}),
        })),
        multiple: q.multiSelect,
      },
      { id: `q${i}_other`, title: "Other", description: "Your own answer, instead of or beside the choices" },
    ]);
    const message =
      questions.length === 1 ? (questions[0]?.question ?? "") : "The agent has questions for you.";
    const answer = await port.form({ callId: o.callId, message, fields }, signal);
    if (answer.action === "cancel") return signal.aborted ? { type: "cancelled" } : { type: "declined" };
    if (answer.action === "decline") return { type: "declined" };
    const answers = questions.flatMap((q, i): QuestionAnswer[] => {
      const chosen = answer.values[`q${i}`];
      const picked = Array.isArray(chosen) ? chosen : chosen ? [chosen] : [];
      const selected = q.options.map((op) => op.label).filter((label) => picked.includes(label));
      const other = answer.values[`q${i}_other`];
      const text = typeof other === "string" ? other.trim() : "";
      if (selected.length === 0 && !text) return [];
      return [{ id: q.id, question: q.question, selected, ...(text ? { other: text } : {}) }];
    });
    return { type: "answered", answers };
  }

  async function viaChoices(port: UserPort): Promise<QuestionOutcome> {
    const answers: QuestionAnswer[] = [];
    for (const q of questions) {
      const listed = q.options.map((op) => `- **${op.label}**${op.description ? `: ${op.description}` : ""}`);
      const note = q.multiSelect ? ["", "_Several may apply; pick the one that matters most._"] : [];
      const chosen = await port.choose(
        {
          callId: o.callId,
          title: q.header ? `${q.header}: ${q.question}` : q.question,
          text: [q.question, "", ...listed, ...note].join("\n"),
          options: [
            ...q.options.map((op, j) => ({ id: `option-${j}`, label: op.label, kind: "allow" as const })),
            { id: "skip", label: "Skip", kind: "reject" as const },
          ],
        },
        signal,
      );
      if (chosen === "cancelled") return { type: "cancelled" };
      const label = q.options[Number(chosen.replace("option-", ""))]?.label;
      if (chosen.startsWith("option-") && label !== undefined)
        answers.push({ id: q.id, question: q.question, selected: [label] });
    }
    return { type: "answered", answers };
  }
}

/** The user's answer to a plan: approved (with the approach picked, where several were offered), or not. */
export type PlanVerdict =
  | { type: "approved"; approach?: string }
  /** Stay in plan mode and revise the plan. */
  | { type: "revise" }
  /** Leave plan mode without the plan (offered where the original offers it). */
  | { type: "reject-and-exit" }
  | { type: "cancelled" }
  /** Nobody can answer; the session stays in plan mode. */
  | { type: "unavailable" };

/**
 * Shows the plan in a permission request and asks whether to leave plan mode with it. With two or
 * more `approaches`, each is an approval of its own (Kimi Code's plan options).
 */
export async function approvePlan(o: {
  plan: string;
  user: UserPort | undefined;
  callId: string;
  signal: AbortSignal;
  approaches?: string[];
  rejectAndExit?: boolean;
}): Promise<PlanVerdict> {
  if (!o.user) return { type: "unavailable" };
  if (o.signal.aborted) return { type: "cancelled" };
  const approaches = o.approaches && o.approaches.length >= 2 ? o.approaches : undefined;
  const approve = approaches
    ? approaches.map((label, i) => ({ id: `approach-${i}`, label, kind: "allow" as const }))
    : [{ id: "approve", label: "Approve the plan", kind: "allow" as const }];
  const answer = await o.user.choose(
    {
      callId: o.callId,
      title: "Approve this plan and leave plan mode?",
      text: o.plan.trim() || "_The agent asks to leave plan mode without a written plan._",
      options: [
        ...approve,
        { id: "revise", label: "Keep planning", kind: "reject" },
        ...(o.rejectAndExit
          ? [{ id: "reject-and-exit", label: "Reject and leave plan mode", kind: "reject" as const }]
          : []),
      ],
    },
    o.signal,
  );
  if (answer === "cancelled" || o.signal.aborted) return { type: "cancelled" };
  if (answer === "approve") return { type: "approved" };
  if (answer === "reject-and-exit") return { type: "reject-and-exit" };
  const approach = approaches?.[Number(answer.replace("approach-", ""))];
  if (answer.startsWith("approach-") && approach !== undefined) return { type: "approved", approach };
  return { type: "revise" };
}

/** Our words where an original has no text of its own for a session nobody can answer. */
export const NO_USER_TEXT =
  "No user is available to answer: this session runs unattended. Do not ask again; make a reasonable assumption, say which one in your final answer, and continue.";
