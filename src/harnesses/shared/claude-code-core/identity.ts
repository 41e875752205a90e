/**
 * The identity line both Claude Code profiles send as their own first system block, in the
 * place where Claude Code 2.1.44 (run through the Agent SDK, as editors run it) sends its SDK
 * identity. Our wording.
 */
export const CLAUDE_AGENT_IDENTITY =
  "You are a Claude agent, working as a coding assistant in Open Interpreter.";
