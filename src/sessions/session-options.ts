import type { Mode } from "../config/types.js";
import { pinnedText } from "../harnesses/harness-list.js";
import type { SessionDeps } from "./session-deps.js";
import type { SessionOptions } from "./types.js";

/** What the editor's pickers show for a session: its mode, model and harness, and the choices. */
export function sessionOptions(o: {
  mode: Mode;
  model: string;
  /** The harness the session runs now (chosen explicitly or by the model). */
  harness: string;
  deps: Pick<SessionDeps, "endpoint" | "harnesses">;
}): SessionOptions {
  const models = [...new Set([o.model, ...o.deps.endpoint.models()].filter(Boolean))];
  return {
    mode: o.mode,
    model: o.model,
    models,
    harness: o.harness,
    harnesses: o.deps.harnesses.list.map((h) => ({
      id: h.id,
      title: h.title,
      description: h.description,
      pinned: pinnedText(h),
    })),
  };
}
