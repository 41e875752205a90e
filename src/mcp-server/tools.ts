import { MODES, type Mode } from "../config/types.js";

/**
 * The two tools, named and shaped as upstream Open Interpreter's `mcp-server` ships them
 * (Codex's `codex` / `codex-reply` pattern): kebab-case parameters to start, camelCase
 * `threadId` (or the older `conversationId`) to continue. `harness` and `mode` are ours: a host
 * delegating work picks the surface and the mode as an editor can. Descriptions are ours.
 */
const OUTPUT_SCHEMA = {
  type: "object",
  properties: { threadId: { type: "string" }, content: { type: "string" } },
  required: ["threadId", "content"],
} as const;

export const START_TOOL = {
  name: "codex",
  title: "Codex",
  description: "Start an Open Interpreter session on a prompt and answer with its final message.",
  inputSchema: {
    type: "object",
    properties: {
      prompt: { type: "string", description: "The first user message of the session." },
      model: { type: "string", description: "Use this model instead of the configured one." },
      harness: {
        type: "string",
        description: "The harness the model works in (an id `/harness` lists); default: chosen by the model.",
      },
      mode: {
        type: "string",
        enum: [...MODES],
        description: "The session's mode; the same modes as in an editor (replaces `sandbox`).",
      },
      cwd: {
        type: "string",
        description: "Folder to work in; a relative path is taken from the server's own folder.",
      },
      "approval-policy": {
        type: "string",
        enum: ["untrusted", "on-request", "never"],
        description: "When to ask before running commands: `untrusted`, `on-request`, `never`.",
      },
      sandbox: {
        type: "string",
        enum: ["read-only", "workspace-write", "danger-full-access"],
        description: "What commands may touch: `read-only`, `workspace-write`, `danger-full-access`.",
      },
      config: {
        type: "object",
        additionalProperties: true,
        description: "Settings that override the home's config.toml.",
      },
      "base-instructions": { type: "string", description: "Instructions replacing the default ones." },
      "developer-instructions": { type: "string", description: "Extra instructions as a developer message." },
      "compact-prompt": { type: "string", description: "Prompt used when the conversation is compacted." },
    },
    required: ["prompt"],
  },
  outputSchema: OUTPUT_SCHEMA,
} as const;

export const REPLY_TOOL = {
  name: "codex-reply",
  title: "Codex Reply",
  description: "Continue a session by its thread id with the next prompt.",
  inputSchema: {
    type: "object",
    properties: {
      conversationId: { type: "string", description: "Older name of threadId." },
      threadId: {
        type: "string",
        description: "The session to continue (required; conversationId also works).",
      },
      prompt: { type: "string", description: "The next user message." },
    },
    required: ["prompt"],
  },
  outputSchema: OUTPUT_SCHEMA,
} as const;

export class ToolInputError extends Error {}

export interface StartInput {
  prompt: string;
  model?: string;
  harness?: string;
  cwd?: string;
  mode?: Mode;
  /** False when `approval-policy` is `never`: requests are refused without asking. */
  ask: boolean;
}

const SANDBOX_MODE: Record<string, Mode> = {
  "read-only": "read-only",
  "workspace-write": "workspace-write",
  "danger-full-access": "full-access",
};

const START_KEYS = new Set(Object.keys(START_TOOL.inputSchema.properties));

/** The `codex` tool's arguments, checked as strictly as upstream (unknown fields refused). */
export function parseStart(args: Record<string, unknown> | undefined): StartInput {
  const a = args ?? {};
  for (const key of Object.keys(a))
    if (!START_KEYS.has(key)) throw new ToolInputError(`unknown field \`${key}\``);
  const prompt = text(a, "prompt", true) as string;
  const sandbox = text(a, "sandbox");
  if (sandbox !== undefined && !(sandbox in SANDBOX_MODE))
    throw new ToolInputError(`sandbox must be one of ${Object.keys(SANDBOX_MODE).join(", ")}`);
  const policy = text(a, "approval-policy");
  if (policy !== undefined && !["untrusted", "on-request", "never"].includes(policy))
    throw new ToolInputError("approval-policy must be one of untrusted, on-request, never");
  const mode = text(a, "mode");
  if (mode !== undefined && !(MODES as readonly string[]).includes(mode))
    throw new ToolInputError(`mode must be one of ${MODES.join(", ")}`);
  if (mode !== undefined && sandbox !== undefined)
    throw new ToolInputError("give either mode or sandbox, not both");
  const model = text(a, "model");
  const harness = text(a, "harness");
  const cwd = text(a, "cwd");
  const chosen = (mode as Mode | undefined) ?? (sandbox ? SANDBOX_MODE[sandbox] : undefined);
  return {
    prompt,
    ...(model ? { model } : {}),
    ...(harness ? { harness } : {}),
    ...(cwd ? { cwd } : {}),
    ...(chosen ? { mode: chosen } : {}),
    ask: policy !== "never",
  };
}

/** The `codex-reply` tool's arguments: the session id and the next prompt. */
export function parseReply(args: Record<string, unknown> | undefined): { threadId: string; prompt: string } {
  const a = args ?? {};
  const prompt = text(a, "prompt", true) as string;
  const threadId = text(a, "threadId") ?? text(a, "conversationId");
  if (!threadId) throw new ToolInputError("either threadId or conversationId must be provided");
  return { threadId, prompt };
}

function text(a: Record<string, unknown>, key: string, required = false): string | undefined {
  const value = a[key];
  if (value === undefined || value === null) {
    if (required) throw new ToolInputError(`missing field \`${key}\``);
    return undefined;
  }
  if (typeof value !== "string") throw new ToolInputError(`\`${key}\` must be a string`);
  return value;
}
