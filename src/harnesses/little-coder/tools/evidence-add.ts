import { z } from "zod";
import type { Tool } from "../../../tools/types.js";
import { evidenceAddDescription, evidenceAddSchema } from "../tool-schemas.js";
import { type EvidenceStore, SNIPPET_CAP } from "./evidence-store.js";

const Args = z.looseObject({
  source: z.string().default(""),
  note: z.string().default(""),
  snippet: z.string().default(""),
});
type Args = z.infer<typeof Args>;

/** little-coder `EvidenceAdd`: keeps a snippet (cut at 1KB with a note) and answers `stored <id>: <note>`. */
export function evidenceAddTool(store: EvidenceStore): Tool<Args> {
  return {
    name: "EvidenceAdd",
    description: evidenceAddDescription,
    kind: "other",
    capability: "other",
    parameters: evidenceAddSchema,
    schema: Args,
    preview: async (args) => ({ title: `EvidenceAdd ${args.note}` }),
    access: () => ({ type: "none" }),
    async execute(args) {
      const source = args.source.trim();
      const note = args.note.trim();
      const fail = (output: string) => ({ output, isError: true });
      if (!source) return fail("Error: source is required (URL or identifier)");
      if (!note) return fail("Error: note is required (1-line summary of the snippet)");
      if (!args.snippet) return fail("Error: snippet is required");
      const snippet =
        args.snippet.length > SNIPPET_CAP
          ? `${args.snippet.slice(0, SNIPPET_CAP)}\n[... snippet truncated, kept ${SNIPPET_CAP} chars ...]`
          : args.snippet;
      const entry = store.add({ source, note, snippet });
      return { output: `stored ${entry.id}: ${note}` };
    },
  };
}
