import type { FakeModel } from "./fake-model.js";

type Message = {
  role: string;
  content: unknown;
  reasoning_content?: string;
  tool_call_id?: string;
  tool_calls?: Array<{ function: { name: string; arguments: string } }>;
};
type Body = { tools?: Array<{ function: { name: string } }>; messages: Message[] };

/** Readers of the scripted model's recorded Chat requests, by index: tools, results, calls. */
export function chatRequests(model: () => FakeModel) {
  const bodyOf = (i: number) => model().requests[i]!.body as Body;
  return {
    bodyOf,
    toolNames: (i: number) => (bodyOf(i).tools ?? []).map((t) => t.function.name),
    toolResult: (i: number, id: string) =>
      bodyOf(i).messages.find((m) => m.role === "tool" && m.tool_call_id === id),
    calls: (i: number) =>
      bodyOf(i)
        .messages.flatMap((m) => m.tool_calls ?? [])
        .map((c) => c.function),
  };
}
