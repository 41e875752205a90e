import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { evidenceGetDescription, evidenceGetSchema } from "../tool-schemas.js";
import type { EvidenceStore } from "./evidence-store.js";

const Args = z.looseObject({ id: z.string().default("") });
type Args = z.infer<typeof Args>;

/** little-coder `EvidenceGet`: one entry as `[id] source: …`, `note: …`, `snippet:` and the snippet. */
export function evidenceGetTool(store: EvidenceStore): Tool<Args> {
  return {
    name: "EvidenceGet",
    description: evidenceGetDescription,
    kind: "read",
    capability: "other",
    parameters: evidenceGetSchema,
    schema: Args,
    preview: async (args) => ({ title: `EvidenceGet ${args.id}` }),
    access: () => ({ type: "none" }),
    async execute(args) {
      const id = args.id.trim();
      if (!id) return { output: "Error: id is required", isError: true };
      const entry = store.get(id);
      if (!entry) return { output: `Error: evidence id '${id}' not found`, isError: true };
      return {
        output: `[${entry.id}] source: ${entry.source}\nnote: ${entry.note}\nsnippet:\n${entry.snippet}`,
      };
    },
  };
}
