import type { ContentBlock, Continuation, HistoryEvent, HistoryEventOf } from "../../store/events.js";

export type ToolCallEvent = HistoryEventOf<"tool_call">;
export type ToolResultEvent = HistoryEventOf<"tool_result">;
export type BackgroundEndedEvent = HistoryEventOf<"background_ended">;

/** A call of one model response and what became of it. */
export interface CallStep {
  call: ToolCallEvent;
  /** Undefined when the call never got a result: a crash or a cancel cut it. */
  result?: ToolResultEvent;
}

/** One model response: its text and reasoning joined, its calls in order, each with its result. */
export interface ResponseStep {
  type: "response";
  turnId: string;
  step: number;
  text: string;
  reasoning: string;
  /** The wire's opaque reasoning data for this response, in order. */
  continuation: Continuation[];
  calls: CallStep[];
}

/**
 * What a renderer needs from the canonical history, in order: a response stands where it began,
 * with the results of its calls attached.
 */
export type HistoryStep =
  | { type: "user"; content: ContentBlock[]; first: boolean }
  /** A text-protocol harness's correction of a reply it could not read, sent as the user. */
  | { type: "correction"; text: string }
  | ResponseStep
  | { type: "notice"; severity: "info" | "warning" | "error"; text: string }
  | { type: "compaction"; summary: string }
  | { type: "harness_changed"; harness: string }
  /** A background command ended; the session put it where the model could first hear of it. */
  | { type: "background_ended"; event: BackgroundEndedEvent };

/**
 * The one walk over the history every renderer sits on. It pairs each call with its result;
 * a result that arrives after its response was closed (a later message came first) is dropped,
 * and so is a second result for the same call: the model saw the call answered once.
 */
export function historySteps(history: readonly HistoryEvent[]): HistoryStep[] {
  const steps: HistoryStep[] = [];
  // The open response is in `steps` already, at its place; results are attached as they come.
  let open: ResponseStep | undefined;
  let answered = false;
  let firstUser = true;

  const close = () => {
    open = undefined;
  };
  const response = (event: { turnId: string; step: number }) => {
    // A response ends at the next step, and at a new message after its calls were answered.
    if (open && (open.turnId !== event.turnId || open.step !== event.step || answered)) close();
    if (!open) {
      open = {
        type: "response",
        turnId: event.turnId,
        step: event.step,
        text: "",
        reasoning: "",
        continuation: [],
        calls: [],
      };
      answered = false;
      steps.push(open);
    }
    return open;
  };

  for (const event of history) {
    switch (event.type) {
      case "user_message":
        close();
        steps.push({ type: "user", content: event.content, first: firstUser });
        firstUser = false;
        break;
      case "format_error":
        close();
        steps.push({ type: "correction", text: event.text });
        break;
      case "assistant_message": {
        const r = response(event);
        r.text += event.text;
        r.reasoning += event.reasoning;
        if (event.continuation) r.continuation.push(...event.continuation);
        break;
      }
      case "tool_call":
        response(event).calls.push({ call: event });
        break;
      case "tool_result": {
        const step = open?.calls.find((c) => c.call.callId === event.callId);
        if (!open || !step || step.result) break;
        step.result = event;
        answered = true;
        break;
      }
      case "notice":
        steps.push({ type: "notice", severity: event.severity, text: event.text });
        break;
      case "compaction":
        close();
        steps.push({ type: "compaction", summary: event.summary });
        break;
      case "harness_changed":
        steps.push({ type: "harness_changed", harness: event.harness });
        break;
      case "background_ended":
        steps.push({ type: "background_ended", event });
        break;
      default:
        break;
    }
  }
  return steps;
}
