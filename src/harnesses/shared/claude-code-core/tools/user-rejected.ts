/** Claude Code's answer to a call the user turned down (its `REJECT_MESSAGE`). */
export const USER_REJECTED =
  "The user doesn't want to proceed with this tool use. The tool use was rejected (eg. if it was a file edit, the new_string was NOT written to the file). STOP what you are doing and wait for the user to tell you how to proceed.";
