/** One question to the user, in every harness's terms: its options and whether several may be chosen. */
export interface Question {
  /** Unique within one call (Codex's `id`; the other originals key answers by the question text). */
  id: string;
  question: string;
  /** A short label the editor may show above the question. */
  header?: string;
  options: Array<{ label: string; description?: string }>;
  multiSelect: boolean;
}

/** What came back for one call's questions. */
export type QuestionOutcome =
  /** Questions the user left unanswered are absent from `answers`. */
  | { type: "answered"; answers: QuestionAnswer[] }
  /** The user dismissed the questions without answering any. */
  | { type: "declined" }
  /** The turn was cancelled while the questions were open. */
  | { type: "cancelled" }
  /** Nobody can answer: no editor, or a client that runs unattended (`interpreter exec`, the MCP server). */
  | { type: "unavailable" };

export interface QuestionAnswer {
  id: string;
  question: string;
  /** The labels chosen, in the options' order. */
  selected: string[];
  /** Free text the user typed instead of (or beside) an option. */
  other?: string;
}

/** One field of a form, as ACP elicitation renders it. */
export interface FormField {
  id: string;
  title: string;
  description?: string;
  /** Choices; `multiple` lets several be picked. Without choices the field is free text. */
  choices?: Array<{ value: string; title: string; description?: string }>;
  multiple?: boolean;
}

export type FormAnswer =
  | { action: "accept"; values: Record<string, string | string[]> }
  | { action: "decline" }
  | { action: "cancel" };

/** A permission-style question: the editor shows `text` and one button per option. */
export interface ChoiceRequest {
  callId: string;
  title: string;
  /** Markdown shown in the request (the question, or the plan to approve). */
  text: string;
  options: Array<{ id: string; label: string; kind: "allow" | "reject" }>;
}

/**
 * The person behind the editor, as tools reach them. `forms`: the editor renders ACP elicitation
 * forms; otherwise only permission-style choices. Every method resolves (never rejects); an
 * aborted signal answers `cancel` / `cancelled`.
 */
export interface UserPort {
  forms: boolean;
  form(
    request: { callId: string; message: string; fields: FormField[] },
    signal: AbortSignal,
  ): Promise<FormAnswer>;
  choose(request: ChoiceRequest, signal: AbortSignal): Promise<string | "cancelled">;
}

/**
 * The session's plan mode as plan tools see it. `enter` remembers the mode it leaves; `exit`
 * brings that mode back and tells the editor, so its mode menu follows.
 */
export interface PlanPort {
  active(): boolean;
  /** The one file plan mode lets the model write: where its plan goes. */
  file: string;
  enter(): void;
  exit(): void;
}
