import path from "node:path";

/** Where plan tools put the plan: the one file plan mode lets the model write, in the session's scratch folder. */
export function planFile(scratchDir: string): string {
  return path.join(scratchDir, "plan.md");
}
