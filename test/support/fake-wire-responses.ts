import { randomUUID } from "node:crypto";
import type { ChatBody, ReplyStep } from "./fake-model.js";
import type { FakeWire } from "./fake-wire.js";
import { checkFields, isRecord, split, typeProblem } from "./fake-wire-checks.js";

/** Top-level fields of OpenAI's Responses request, with the type each must have. */
const FIELDS: Record<string, string> = {
  model: "string",
  input: "string|array",
  instructions: "string",
  tools: "array",
  tool_choice: "string|object",
  parallel_tool_calls: "boolean",
  store: "boolean",
  stream: "boolean",
  stream_options: "object",
  include: "array",
  prompt_cache_key: "string",
  prompt_cache_retention: "string",
  reasoning: "object",
  max_output_tokens: "number",
  max_tool_calls: "number",
  temperature: "number",
  top_p: "number",
  top_logprobs: "number",
  text: "object",
  client_metadata: "object",
  metadata: "object",
  service_tier: "string",
  truncation: "string",
  user: "string",
  safety_identifier: "string",
  previous_response_id: "string",
  background: "boolean",
};

const INCLUDES = [
  "reasoning.encrypted_content",
  "message.output_text.logprobs",
  "file_search_call.results",
  "web_search_call.action.sources",
  "code_interpreter_call.outputs",
  "computer_call_output.output.image_url",
  "message.input_image.image_url",
];

/** Input item fields by `type`. */
const ITEMS: Record<string, Record<string, string>> = {
  message: { type: "string", role: "string", content: "string|array", id: "string", status: "string" },
  function_call: {
    type: "string",
    call_id: "string",
    name: "string",
    arguments: "string",
    id: "string",
    status: "string",
  },
  function_call_output: {
    type: "string",
    call_id: "string",
    output: "string|array",
    id: "string",
    status: "string",
  },
  custom_tool_call: {
    type: "string",
    call_id: "string",
    name: "string",
    input: "string",
    id: "string",
    status: "string",
  },
  custom_tool_call_output: { type: "string", call_id: "string", output: "string|array", id: "string" },
  reasoning: {
    type: "string",
    id: "string",
    summary: "array",
    encrypted_content: "string",
    content: "array",
    status: "string",
  },
};

const ANSWERS: Record<string, string> = {
  function_call_output: "function_call",
  custom_tool_call_output: "custom_tool_call",
};

/** OpenAI Responses, stateless (`store: false`) as Codex runs it. */
export const responsesWire: FakeWire = {
  wire: "responses",
  path: "/v1/responses",
  validate: validateResponses,
  events: responseEvents,
};

function validateResponses(body: ChatBody): string[] {
  const problems = checkFields("body", body, FIELDS);
  for (const name of Array.isArray(body.include) ? body.include : [])
    if (!INCLUDES.includes(name)) problems.push(`include has unknown value ${String(name)}`);
  if (isRecord(body.reasoning))
    problems.push(...checkFields("reasoning", body.reasoning, { effort: "string", summary: "string" }));
  for (const [i, tool] of (Array.isArray(body.tools) ? body.tools : []).entries())
    problems.push(...toolProblems(tool, `tools[${i}]`));
  if (Array.isArray(body.input)) problems.push(...inputProblems(body.input, body.store === false));
  return problems;
}

function toolProblems(tool: unknown, at: string): string[] {
  if (!isRecord(tool)) return [`${at} is not an object`];
  if (tool.type === "function") {
    const problems = checkFields(at, tool, {
      type: "string",
      name: "string",
      description: "string",
      parameters: "object",
      strict: "boolean",
    });
    if ("function" in tool) problems.push(`${at} is nested as in Chat`);
    return problems;
  }
  if (tool.type === "custom") {
    const problems = checkFields(at, tool, {
      type: "string",
      name: "string",
      description: "string",
      format: "object",
    });
    const format = tool.format;
    if (isRecord(format) && format.type === "grammar")
      problems.push(
        ...checkFields(`${at}.format`, format, { type: "string", syntax: "string", definition: "string" }),
      );
    else if (isRecord(format) && format.type !== "text")
      problems.push(`${at}.format has unknown type ${String(format.type)}`);
    return problems;
  }
  return typeof tool.type === "string" ? [] : [`${at} has no type`];
}

function inputProblems(input: unknown[], stateless: boolean): string[] {
  const problems: string[] = [];
  /** Call ids waiting for their output, with the call's type. */
  const open = new Map<string, string>();
  for (const [i, item] of input.entries()) {
    const at = `input[${i}]`;
    if (!isRecord(item)) {
      problems.push(`${at} is not an object`);
      continue;
    }
    const type = typeof item.type === "string" ? item.type : "message";
    const fields = ITEMS[type];
    if (!fields) {
      problems.push(`${at} has unknown type ${type}`);
      continue;
    }
    problems.push(...checkFields(`${at} (${type})`, item, fields));
    if (type === "message") {
      if (open.size > 0)
        problems.push(`${at} (message) comes before the outputs of ${[...open.keys()].join(", ")}`);
      open.clear();
      problems.push(...messageProblems(item, at));
    } else if (type === "function_call" || type === "custom_tool_call") {
      if (typeof item.call_id === "string") open.set(item.call_id, type);
    } else if (ANSWERS[type]) {
      // An output may be content parts, as an input message's are (Codex's view_image sends an image).
      if (Array.isArray(item.output)) problems.push(...partsProblems(item.output, `${at}.output`, "user"));
      const call = open.get(String(item.call_id));
      if (call === undefined) problems.push(`${at} (${type}) answers no open call (${String(item.call_id)})`);
      else if (call !== ANSWERS[type]) problems.push(`${at} (${type}) answers a ${call}`);
      open.delete(String(item.call_id));
    } else if (type === "reasoning" && stateless && typeof item.encrypted_content !== "string") {
      problems.push(`${at} (reasoning) has no encrypted_content, and with store: false its id names nothing`);
    }
  }
  if (open.size > 0) problems.push(`the input ends before the outputs of ${[...open.keys()].join(", ")}`);
  return problems;
}

function messageProblems(item: Record<string, unknown>, at: string): string[] {
  const role = item.role;
  if (role !== "user" && role !== "developer" && role !== "system" && role !== "assistant")
    return [`${at} has unknown role ${String(role)}`];
  if (typeof item.content === "string") return [];
  return partsProblems(Array.isArray(item.content) ? item.content : [], `${at}.content`, role);
}

function partsProblems(parts: unknown[], at: string, role: string): string[] {
  const problems: string[] = [];
  const allowed =
    role === "assistant" ? ["output_text", "refusal"] : ["input_text", "input_image", "input_file"];
  for (const [j, part] of parts.entries()) {
    const where = `${at}[${j}]`;
    if (!isRecord(part) || !allowed.includes(String(part.type))) {
      problems.push(
        `${where} has type ${String(isRecord(part) ? part.type : part)}, not allowed in a ${role} message`,
      );
      continue;
    }
    if (part.type === "input_image") {
      problems.push(
        ...checkFields(where, part, {
          type: "string",
          image_url: "string",
          detail: "string",
          file_id: "string",
        }),
      );
      if (!["auto", "low", "high", "original", undefined].includes(part.detail as string | undefined))
        problems.push(`${where}.detail ${String(part.detail)} is not auto, low, high or original`);
    } else if (part.type === "output_text")
      problems.push(
        ...checkFields(where, part, {
          type: "string",
          text: "string",
          annotations: "array",
          logprobs: "array",
        }),
      );
    else if (part.type === "input_text") {
      problems.push(...checkFields(where, part, { type: "string", text: "string" }));
      const problem = typeProblem(part.text, "string");
      if (problem) problems.push(`${where}.text ${problem}`);
    }
  }
  return problems;
}

/** The events of a reply step: reasoning, text, calls (function or custom), then completed or incomplete. */
function responseEvents(
  step: ReplyStep,
  body: ChatBody,
  nextId: () => string,
): Array<{ event: string; data: string }> {
  const size = Math.max(1, step.chunkSize ?? 16);
  const responseId = `resp_${randomUUID()}`;
  const model = typeof body.model === "string" ? body.model : "fake-model";
  const out: Array<{ event: string; data: string }> = [];
  const emit = (type: string, fields: object) =>
    out.push({ event: type, data: JSON.stringify({ type, sequence_number: out.length, ...fields }) });
  const output: object[] = [];
  const response = (status: string, extra: object = {}) => ({
    id: responseId,
    object: "response",
    created_at: 1_700_000_000,
    status,
    model,
    output,
    ...extra,
  });
  emit("response.created", { response: response("in_progress") });
  emit("response.in_progress", { response: response("in_progress") });

  if (step.reasoning !== undefined || step.encryptedReasoning !== undefined) {
    const id = `rs_${randomUUID()}`;
    const output_index = output.length;
    const text = step.reasoning ?? "";
    emit("response.output_item.added", { output_index, item: { type: "reasoning", id, summary: [] } });
    if (text) {
      const part = { item_id: id, output_index, summary_index: 0 };
      emit("response.reasoning_summary_part.added", { ...part, part: { type: "summary_text", text: "" } });
      for (const delta of split(text, size))
        emit("response.reasoning_summary_text.delta", { ...part, delta });
      emit("response.reasoning_summary_text.done", { ...part, text });
      emit("response.reasoning_summary_part.done", { ...part, part: { type: "summary_text", text } });
    }
    // A server asked for `reasoning.encrypted_content` sends it on every reasoning item.
    const asked = Array.isArray(body.include) && body.include.includes("reasoning.encrypted_content");
    const encrypted =
      step.encryptedReasoning ?? (asked ? Buffer.from(`enc:${id}`).toString("base64") : undefined);
    const item = {
      type: "reasoning",
      id,
      summary: text ? [{ type: "summary_text", text }] : [],
      ...(encrypted !== undefined ? { encrypted_content: encrypted } : {}),
    };
    output.push(item);
    emit("response.output_item.done", { output_index, item });
  }
  if (step.text) {
    const id = `msg_${randomUUID()}`;
    const output_index = output.length;
    const at = { item_id: id, output_index, content_index: 0 };
    emit("response.output_item.added", {
      output_index,
      item: { type: "message", id, role: "assistant", status: "in_progress", content: [] },
    });
    emit("response.content_part.added", { ...at, part: { type: "output_text", text: "", annotations: [] } });
    for (const delta of split(step.text, size))
      emit("response.output_text.delta", { ...at, delta, logprobs: [] });
    emit("response.output_text.done", { ...at, text: step.text, logprobs: [] });
    const part = { type: "output_text", text: step.text, annotations: [], logprobs: [] };
    emit("response.content_part.done", { ...at, part });
    const item = { type: "message", id, role: "assistant", status: "completed", content: [part] };
    output.push(item);
    emit("response.output_item.done", { output_index, item });
  }
  for (const call of step.toolCalls ?? []) {
    const output_index = output.length;
    const call_id = call.id ?? nextId();
    const raw = typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments);
    const custom = call.custom === true;
    const id = `${custom ? "ctc" : "fc"}_${randomUUID()}`;
    const [type, field, event] = custom
      ? ["custom_tool_call", "input", "response.custom_tool_call_input"]
      : ["function_call", "arguments", "response.function_call_arguments"];
    emit("response.output_item.added", {
      output_index,
      item: { type, id, call_id, name: call.name, [field]: "", status: "in_progress" },
    });
    for (const delta of split(raw, size)) emit(`${event}.delta`, { item_id: id, output_index, delta });
    emit(`${event}.done`, { item_id: id, output_index, [field]: raw });
    const item = { type, id, call_id, name: call.name, [field]: raw, status: "completed" };
    output.push(item);
    emit("response.output_item.done", { output_index, item });
  }
  const cut = step.finishReason === "length";
  const usage = step.usage === false ? undefined : (step.usage ?? {});
  const input = usage?.prompt_tokens ?? 12;
  const completion = usage?.completion_tokens ?? 7;
  emit(cut ? "response.incomplete" : "response.completed", {
    response: response(cut ? "incomplete" : "completed", {
      ...(cut ? { incomplete_details: { reason: "max_output_tokens" } } : {}),
      ...(usage
        ? {
            usage: {
              input_tokens: input,
              input_tokens_details: { cached_tokens: usage.cached_tokens ?? 0 },
              output_tokens: completion,
              output_tokens_details: { reasoning_tokens: usage.reasoning_tokens ?? 0 },
              total_tokens: input + completion,
            },
          }
        : {}),
    }),
  });
  return out;
}
