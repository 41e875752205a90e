import type { SessionConfigOption, SessionSummary } from "../../acp/local-client.js";
import { builtinHarnesses, chooseHarness, findHarness, pinnedText } from "../../harnesses/harness-list.js";
import { age } from "./session-picker.js";
import type { PickItem, PickOptions } from "./terminal-input.js";

/** The commands that open a list when typed alone on a terminal; with an argument they run as typed. */
export const PICKED_COMMANDS = ["harness", "model", "mode"] as const;
export type PickedCommand = (typeof PICKED_COMMANDS)[number];

/** The choices of one of the session's select options (model, mode, harness), current one selected. */
export function optionPick(config: SessionConfigOption[], id: PickedCommand): PickOptions | undefined {
  const option = config.find((o) => o.id === id);
  if (option?.type !== "select") return undefined;
  const choices = option.options.flatMap((o) => ("value" in o ? [o] : o.options));
  const current = String(option.currentValue);
  const items: PickItem[] = choices.map((c) => ({
    value: c.value,
    label: c.value === current ? `${c.value} (current)` : c.value,
    ...(c.description ? { description: c.description } : c.name !== c.value ? { description: c.name } : {}),
  }));
  if (id === "harness")
    describeHarnesses(items, String(config.find((o) => o.id === "model")?.currentValue ?? ""));
  const titles: Record<PickedCommand, string> = {
    harness: "Harness: the tool surface and prompt layout the model sees",
    model: "Model (from the endpoint's model list)",
    mode: "Permission mode",
  };
  return {
    title: titles[id],
    items,
    selected: Math.max(
      0,
      choices.findIndex((c) => c.value === current),
    ),
  };
}

/** Each harness with what it is for and the original it is pinned to; the one for the model marked. */
function describeHarnesses(items: PickItem[], model: string): void {
  const harnesses = builtinHarnesses();
  const recommended = chooseHarness({ harnesses, model }).harness.id;
  for (const item of items) {
    const harness = findHarness(harnesses, item.value);
    if (!harness) continue;
    if (harness.id === recommended) item.label = `${item.label} ★ recommended`;
    item.description = `${harness.description} · ${pinnedText(harness)}`;
  }
}

/** `/resume`: this folder's sessions, newest first. */
export function sessionPick(sessions: SessionSummary[], now: Date): PickOptions {
  return {
    title: "Resume a session of this folder",
    items: sessions.map((s) => ({
      value: s.sessionId,
      label: s.title || "(untitled)",
      description: `${age(s.updatedAt, now)} · ${s.sessionId.slice(0, 8)}`,
    })),
  };
}
