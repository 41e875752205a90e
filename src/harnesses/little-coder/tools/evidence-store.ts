import { randomBytes } from "node:crypto";

/** little-coder's cap on a kept snippet, in characters. */
export const SNIPPET_CAP = 1024;

export interface EvidenceEntry {
  id: string;
  source: string;
  note: string;
  snippet: string;
}

/**
 * The evidence a session has kept (little-coder `evidence` extension). It lives as long as the
 * harness is open for the session, as the original's lives until its session shuts down.
 */
export class EvidenceStore {
  readonly entries: EvidenceEntry[] = [];

  add(entry: Omit<EvidenceEntry, "id">): EvidenceEntry {
    // The original's ids: `e` and six hex digits.
    const kept = { id: `e${randomBytes(3).toString("hex")}`, ...entry };
    this.entries.push(kept);
    return kept;
  }

  get(id: string): EvidenceEntry | undefined {
    return this.entries.find((entry) => entry.id === id);
  }
}
