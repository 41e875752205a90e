/** One file a patch changed (or, in a dry run, would change). Paths are absolute. */
export interface FileChange {
  kind: "add" | "delete" | "update";
  path: string;
  /** Where an update moved the file to (`*** Move to:`). */
  movePath?: string;
  /** Content before: null when an added file did not exist or a deleted file was unreadable. */
  oldText: string | null;
  /** Content after: null for a deletion. */
  newText: string | null;
}
