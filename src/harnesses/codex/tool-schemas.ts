/**
 * Parameter schemas of Codex 0.171's unified exec tools as it serializes them: properties in
 * alphabetical (BTreeMap) order, keys `type, description, enum | items`, `required`,
 * `additionalProperties: false`; sent with `strict: false`. Names, types, enums and nesting are
 * 0.171's; the descriptions are ours.
 */

const maxOutputTokens = {
  type: "number",
  description: "Most output tokens to return (10000 by default); a policy may lower larger requests.",
};

/** `exec_command`: one command for a shell, run in a session that may outlive the call. */
export const execCommandSchema = {
  type: "object",
  properties: {
    cmd: { type: "string", description: "The shell command to run." },
    justification: {
      type: "string",
      description:
        "The approval question shown to the user with `require_escalated`; leave it out otherwise.",
    },
    login: { type: "boolean", description: "Start the shell as a login shell. Leave out to inherit." },
    max_output_tokens: maxOutputTokens,
    prefix_rule: {
      type: "array",
      description:
        'With `sandbox_permissions: "require_escalated"` only: a command prefix the approval may cover from now on, such as ["git", "pull"].',
      items: { type: "string" },
    },
    sandbox_permissions: {
      type: "string",
      description:
        "Sandbox for this command: `use_default` (the default) or `require_escalated` to ask to run it outside the sandbox.",
      enum: ["use_default", "require_escalated"],
    },
    shell: {
      type: "string",
      description: "The shell program to start; the user's default shell if left out.",
    },
    tty: {
      type: "boolean",
      description: "Whether to give the command a PTY; plain pipes when false or left out.",
    },
    workdir: {
      type: "string",
      description: "Directory to run in; the turn's working directory if left out.",
    },
    yield_time_ms: {
      type: "number",
      description:
        "How long to wait for output before answering: 10000 ms by default, kept between 250 and 30000.",
    },
  },
  required: ["cmd"],
  additionalProperties: false,
};

/** `write_stdin`: input for, or a poll of, a session `exec_command` left running. */
export const writeStdinSchema = {
  type: "object",
  properties: {
    chars: { type: "string", description: "Characters to send to stdin; empty (the default) only polls." },
    max_output_tokens: maxOutputTokens,
    session_id: { type: "number", description: "The id of the running exec session." },
    yield_time_ms: {
      type: "number",
      description:
        "How long to wait for output: a write waits 250 ms by default, at most 30000; an empty poll waits 5000 to 300000 ms.",
    },
  },
  required: ["session_id"],
  additionalProperties: false,
};

/** `view_image`: a local image file, shown to the model. */
export const viewImageSchema = {
  type: "object",
  properties: {
    path: { type: "string", description: "Path of the image file to look at." },
  },
  required: ["path"],
  additionalProperties: false,
};
