/**
 * JSON schemas of Codex's tools as upstream Codex serializes them (openai/codex
 * `codex-rs/tools/src/local_tool.rs`, `apply_patch_tool.rs`, `plan_tool.rs`): properties in
 * BTreeMap (alphabetical) order, keys in the order `type, description, items, properties,
 * required, additionalProperties`, sent with `strict: false`.
 *
 * `shell_command` carries Codex's escalation pair (`sandbox_permissions` +
 * `justification`, as sent under the on-request approval policy) and leaves out the optional
 * `login` and `prefix_rule`.
 */

/** `shell_command`: one script for the user's default shell. */
export const shellCommandSchema = {
  type: "object",
  properties: {
    command: { type: "string", description: "The shell script to execute in the user's default shell" },
    justification: {
      type: "string",
      description:
        'Only set if sandbox_permissions is "require_escalated". 1-sentence explanation of why we want to run this command.',
    },
    sandbox_permissions: {
      type: "string",
      description:
        'Sandbox permissions for the command. Set to "require_escalated" to request running without sandbox restrictions; defaults to "use_default".',
    },
    timeout_ms: { type: "number", description: "The timeout for the command in milliseconds" },
    workdir: { type: "string", description: "The working directory to execute the command in" },
  },
  required: ["command"],
  additionalProperties: false,
};

/** `apply_patch` in its function form (Codex's `create_apply_patch_json_tool`, the gpt-oss surface). */
export const applyPatchSchema = {
  type: "object",
  properties: {
    input: { type: "string", description: "The entire contents of the apply_patch command" },
  },
  required: ["input"],
  additionalProperties: false,
};

/** `update_plan`: `status` is a plain string described, not enumerated, exactly as upstream sends it. */
export const updatePlanSchema = {
  type: "object",
  properties: {
    explanation: { type: "string" },
    plan: {
      type: "array",
      description: "The list of steps",
      items: {
        type: "object",
        properties: {
          status: { type: "string", description: "One of: pending, in_progress, completed" },
          step: { type: "string" },
        },
        required: ["step", "status"],
        additionalProperties: false,
      },
    },
  },
  required: ["plan"],
  additionalProperties: false,
};

/** Codex's default `timeout_ms` for `shell_command` (`DEFAULT_EXEC_COMMAND_TIMEOUT_MS`). */
export const SHELL_COMMAND_DEFAULT_TIMEOUT_MS = 10_000;

/** What `update_plan` returns to the model on success. */
export const PLAN_UPDATED = "Plan updated";
