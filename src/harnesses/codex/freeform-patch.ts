import type { CustomTool } from "../../providers/model-request.js";
import description from "./freeform-patch.md";

/**
 * The patch format as a Lark grammar, for Codex's freeform `apply_patch` (the gpt-5 family):
 * the server constrains the model's raw input to it, so it is this tool's parameter shape and is
 * held exactly as Codex 0.171 sends it, like every JSON schema here. It states the format our
 * parser reads (`tools/apply-patch/parse-patch.ts`): an envelope, then add, delete and update
 * operations.
 */
const GRAMMAR = `start: begin_patch hunk+ end_patch
begin_patch: "*** Begin Patch" LF
end_patch: "*** End Patch" LF?

hunk: add_hunk | delete_hunk | update_hunk
add_hunk: "*** Add File: " filename LF add_line+
delete_hunk: "*** Delete File: " filename LF
update_hunk: "*** Update File: " filename LF change_move? change?

filename: /(.+)/
add_line: "+" /(.*)/ LF -> line

change_move: "*** Move to: " filename LF
change: (change_context | change_line)+ eof_line?
change_context: ("@@" | "@@ " /(.+)/) LF
change_line: ("+" | "-" | " ") /(.*)/ LF
eof_line: "*** End of File" LF

%import common.LF
`;

/** `apply_patch` as Codex 0.171 offers it to the gpt-5 family: a custom tool with the grammar. */
export function freeformPatchSpec(): CustomTool {
  return {
    type: "custom",
    name: "apply_patch",
    description,
    format: { type: "grammar", syntax: "lark", definition: GRAMMAR },
  };
}
