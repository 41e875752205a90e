import type {
  CreateElicitationRequest,
  CreateElicitationResponse,
  ElicitationPropertySchema,
  PermissionOption,
} from "@agentclientprotocol/sdk/unstable";
import type { ChoiceRequest, FormAnswer, FormField } from "../tools/ask/types.js";

/** A form of the model's questions as an ACP `elicitation/create` request (form mode, tied to the call). */
export function toElicitation(
  sessionId: string,
  request: { callId: string; message: string; fields: FormField[] },
): CreateElicitationRequest {
  return {
    mode: "form",
    sessionId,
    toolCallId: request.callId,
    message: request.message,
    requestedSchema: {
      type: "object",
      properties: Object.fromEntries(request.fields.map((field) => [field.id, propertyOf(field)])),
    },
  };
}

function propertyOf(field: FormField): ElicitationPropertySchema {
  const about = { title: field.title, ...(field.description ? { description: field.description } : {}) };
  const choices = field.choices?.map((c) => ({
    const: c.value,
    title: c.title,
    ...(c.description ? { description: c.description } : {}),
  }));
  if (!choices) return { type: "string", ...about };
  if (field.multiple) return { type: "array", ...about, items: { anyOf: choices } };
  return { type: "string", ...about, oneOf: choices };
}

/** The editor's answer to a form; values of other types than the form asked for are dropped. */
export function fromElicitation(response: CreateElicitationResponse): FormAnswer {
  if (response.action === "decline") return { action: "decline" };
  if (response.action !== "accept") return { action: "cancel" };
  const content = (response as { content?: Record<string, unknown> | null }).content ?? {};
  const values: Record<string, string | string[]> = {};
  for (const [key, value] of Object.entries(content)) {
    if (typeof value === "string") values[key] = value;
    else if (Array.isArray(value)) values[key] = value.filter((v): v is string => typeof v === "string");
  }
  return { action: "accept", values };
}

/** A choice's options as permission options: the first of each kind may be pre-selected by editors. */
export function choiceOptions(request: ChoiceRequest): PermissionOption[] {
  return request.options.map((option) => ({
    optionId: option.id,
    name: option.label,
    kind: option.kind === "allow" ? "allow_once" : "reject_once",
  }));
}
