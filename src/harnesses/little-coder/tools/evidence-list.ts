import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { evidenceListDescription, evidenceListSchema } from "../tool-schemas.js";
import type { EvidenceStore } from "./evidence-store.js";

const Args = z.looseObject({});
type Args = z.infer<typeof Args>;

/** little-coder `EvidenceList`: one tab-separated `id source note` line per entry. */
export function evidenceListTool(store: EvidenceStore): Tool<Args> {
  return {
    name: "EvidenceList",
    description: evidenceListDescription,
    kind: "read",
    capability: "other",
    parameters: evidenceListSchema,
    schema: Args,
    preview: async () => ({ title: "EvidenceList" }),
    access: () => ({ type: "none" }),
    async execute() {
      if (store.entries.length === 0) return { output: "(no evidence stored yet)" };
      return { output: store.entries.map((e) => `${e.id}\t${e.source}\t${e.note}`).join("\n") };
    },
  };
}
