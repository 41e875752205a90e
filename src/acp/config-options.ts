import type { SessionConfigOption, SessionModeState } from "@agentclientprotocol/sdk/unstable";
import type { Mode } from "../config/types.js";
import type { SessionOptions } from "../sessions/types.js";

const MODE_INFO: Record<Mode, { name: string; description: string }> = {
  "read-only": { name: "Read only", description: "Reads freely; asks before any edit or command" },
  "workspace-write": {
    name: "Workspace write",
    description: "Edits the workspace; asks before commands that are not known read-only",
  },
  auto: {
    name: "Auto",
    description: "Runs confined commands without asking (asks while no sandbox is available)",
  },
  "full-access": { name: "Full access", description: "Runs everything without asking, unconfined" },
  plan: {
    name: "Plan",
    description: "Reads and plans only; the mode before it returns once you approve the plan",
  },
};

/** The complete option set, in priority order: mode, model, harness. */
export function toConfigOptions(options: SessionOptions): SessionConfigOption[] {
  const model = options.model || "none";
  const models = options.models.length > 0 ? options.models : [model];
  return [
    {
      id: "mode",
      name: "Mode",
      category: "mode",
      type: "select",
      currentValue: options.mode,
      options: (Object.keys(MODE_INFO) as Mode[]).map((id) => ({ value: id, ...MODE_INFO[id] })),
    },
    {
      id: "model",
      name: "Model",
      category: "model",
      type: "select",
      currentValue: model,
      options: (models.includes(model) ? models : [model, ...models]).map((id) => ({
        value: id,
        name: id === "none" && !options.model ? "No model configured" : id,
      })),
    },
    {
      id: "harness",
      name: "Harness",
      description: "The tool surface and prompt layout the model sees",
      category: "_harness",
      type: "select",
      currentValue: options.harness,
      options: options.harnesses.map((h) => ({ value: h.id, name: h.title, description: h.description })),
    },
  ];
}

/** Legacy `modes` for editors that predate config options; kept in sync with the `mode` option. */
export function toModeState(options: SessionOptions): SessionModeState {
  return {
    currentModeId: options.mode,
    availableModes: (Object.keys(MODE_INFO) as Mode[]).map((id) => ({ id, ...MODE_INFO[id] })),
  };
}
