import { type Loose, number, record, string } from "./loose-json.js";
import type { Continuation } from "./model-request.js";
import type { Failure } from "./provider-error.js";
import type { AttemptOutcome } from "./retry-loop.js";
import type { StreamReader } from "./sdk-attempt.js";
import type { AssembledToolCall, ProviderEvent, Usage } from "./types.js";

/** A call being streamed: whole once its `output_item.done` arrived. */
interface OpenCall {
  call: AssembledToolCall;
  custom: boolean;
  input: string;
}

/**
 * Reads Responses stream events: text and reasoning deltas as they arrive; function and custom
 * calls, reasoning items and usage with the end of the response. A custom call's raw input
 * becomes `{"input": raw}`, the form every tool call is stored in.
 */
export function responsesReader(): StreamReader<unknown> {
  const calls = new Map<string, OpenCall>();
  const reasoning: Continuation[] = [];
  let events = 0;
  let usage: Usage | undefined;
  let finishReason: string | undefined;
  let summaryAt: string | undefined;

  const openCall = (item: Loose): OpenCall | undefined => {
    const custom = item.type === "custom_tool_call";
    if (item.type !== "function_call" && !custom) return undefined;
    const key = string(item.id) || string(item.call_id);
    const open = calls.get(key) ?? {
      call: { id: string(item.call_id) || key, name: "", arguments: "" },
      custom,
      input: "",
    };
    calls.set(key, open);
    if (string(item.name)) open.call.name = string(item.name);
    if (typeof item.arguments === "string" && item.arguments) open.call.arguments = item.arguments;
    if (typeof item.input === "string" && item.input) open.input = item.input;
    return open;
  };

  const end = (response: Loose): ProviderEvent[] => {
    usage = readUsage(response.usage);
    const reason = string(record(response.incomplete_details).reason);
    finishReason =
      response.status === "incomplete" ? (reason === "content_filter" ? "content_filter" : "length") : "stop";
    return reasoning.length > 0 ? [{ type: "continuation", continuation: [...reasoning] }] : [];
  };

  return {
    read(value) {
      events++;
      const event = record(value);
      const show: ProviderEvent[] = [];
      switch (event.type) {
        case "response.output_text.delta":
          if (string(event.delta)) show.push({ type: "text", text: string(event.delta) });
          break;
        case "response.reasoning_summary_text.delta":
        case "response.reasoning_text.delta": {
          // Summary parts are separate paragraphs.
          const at = `${string(event.item_id)}:${String(event.summary_index ?? event.content_index ?? 0)}`;
          const gap = summaryAt !== undefined && summaryAt !== at ? "\n\n" : "";
          summaryAt = at;
          if (string(event.delta)) show.push({ type: "reasoning", text: gap + string(event.delta) });
          break;
        }
        case "response.output_item.added":
          openCall(record(event.item));
          break;
        case "response.function_call_arguments.delta":
        case "response.custom_tool_call_input.delta": {
          const open = calls.get(string(event.item_id));
          if (open?.custom) open.input += string(event.delta);
          else if (open) open.call.arguments += string(event.delta);
          break;
        }
        case "response.output_item.done": {
          const item = record(event.item);
          if (item.type === "reasoning") reasoning.push({ wire: "responses", item });
          else openCall(item);
          break;
        }
        case "response.completed":
        case "response.incomplete":
          show.push(...end(record(event.response)));
          break;
        case "response.failed":
          return { show, failure: failed(record(record(event.response).error)) };
        case "error":
          return { show, failure: failed(event) };
        default:
          break;
      }
      return { show };
    },
    ending: () => finishReason !== undefined,
    complete(contentType): AttemptOutcome {
      if (finishReason === undefined) {
        const failure: Failure =
          events === 0
            ? { kind: "protocol", detail: `no stream events (content-type ${contentType})` }
            : {
                kind: "network",
                detail: "the stream ended before the response completed",
                midResponse: true,
              };
        return { kind: "failed", failure, emitted: false };
      }
      const assembled = [...calls.values()]
        .map(({ call, custom, input }) => (custom ? { ...call, arguments: JSON.stringify({ input }) } : call))
        .filter((call) => call.name);
      return { kind: "complete", calls: assembled, finishReason, ...(usage ? { usage } : {}) };
    },
  };
}

/** An error event or a failed response, as an in-stream failure (its code joins the message so overflow is recognised). */
function failed(error: Loose): Failure {
  const code = string(error.code);
  const message = string(error.message) || "the response failed";
  const status = Number(error.code);
  return {
    kind: "in_stream",
    body: JSON.stringify({
      error: { message: code && !message.includes(code) ? `${message} (${code})` : message },
    }),
    ...(status >= 400 && status < 600 ? { status } : {}),
  };
}

function readUsage(value: unknown): Usage | undefined {
  const usage = record(value);
  if (typeof usage.input_tokens !== "number" && typeof usage.output_tokens !== "number") return undefined;
  const out: Usage = { inputTokens: number(usage.input_tokens), outputTokens: number(usage.output_tokens) };
  const cached = record(usage.input_tokens_details).cached_tokens;
  const reasoning = record(usage.output_tokens_details).reasoning_tokens;
  if (typeof cached === "number") out.cachedInputTokens = cached;
  if (typeof reasoning === "number") out.reasoningTokens = reasoning;
  return out;
}
