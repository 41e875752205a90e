/**
 * The input schemas of ZCode 0.14.8's tools as upstream Open Interpreter 0.0.40 sends them
 * (`codex-rs/core/src/harness/zcode_tools.json`): per tool `type, properties, required,
 * additionalProperties, $schema`, each property's `type` (and bounds) before its `description`.
 * Names, order, types, bounds, enums and required lists are the original's; every description
 * is our wording of its rules.
 */

const SCHEMA = "https://json-schema.org/draft/2020-12/schema";
const MAX_SAFE = 9007199254740991;

export const str = (description: string) => ({ type: "string", description });
export const bool = (description: string) => ({ type: "boolean", description });

export function object(
  properties: Record<string, unknown>,
  required: string[],
  extra: Record<string, unknown> = {},
) {
  return {
    type: "object",
    properties,
    ...(required.length > 0 ? { required } : {}),
    additionalProperties: false,
    ...extra,
    $schema: SCHEMA,
  };
}

export const bashSchema = object(
  {
    command: str("The shell command to run"),
    timeout: { type: "number", description: "A time limit in milliseconds (600000 at most)" },
    description: str(
      'What the command does, in the active voice and plain words (leave out words such as "complex" or "risk").\n\nEveryday commands (git, npm, common CLI tools) get 5-10 words:\n- ls → "List the files here"\n- git status → "Show the working tree state"\n- npm install → "Install the dependencies"\n\nCommands that are hard to read at a glance (pipes, rare flags) get enough words to make them clear:\n- find . -name "*.tmp" -exec rm {} \\; → "Delete every .tmp file below this folder"\n- git reset --hard origin/main → "Drop local changes and reset to remote main"\n- curl -s url | jq \'.data[]\' → "Download JSON and print each entry of its data array"',
    ),
    run_in_background: bool("When true, the command starts in the background."),
    dangerouslyDisableSandbox: bool("When true, asks to run the command outside the sandbox."),
  },
  ["command"],
);

export const editSchema = object(
  {
    file_path: str("Absolute path of the file to change"),
    old_string: str("The exact text to replace"),
    new_string: str("The text to put in its place (different from old_string)"),
    replace_all: {
      type: "boolean",
      default: false,
      description: "Replace every occurrence of old_string instead of one (default false)",
    },
  },
  ["file_path", "old_string", "new_string"],
);

export const readSchema = object(
  {
    file_path: str("Absolute path of the file to read"),
    offset: {
      type: "integer",
      minimum: 0,
      maximum: MAX_SAFE,
      description: "Line to start at; give it only when the file is too long to read in one go",
    },
    limit: {
      type: "integer",
      exclusiveMinimum: 0,
      maximum: MAX_SAFE,
      description: "How many lines to read; give it only when the file is too long to read in one go.",
    },
  },
  ["file_path"],
);

export const skillSchema = object(
  {
    skill: str("The name of a skill from the list of available skills. Never make one up."),
    args: str("Arguments for the skill, if any"),
  },
  ["skill"],
);

export const todoReadSchema = object({}, []);

export const todoWriteSchema = object(
  {
    todos: {
      type: "array",
      items: {
        type: "object",
        properties: {
          content: { type: "string", minLength: 1, description: "What the task is, briefly" },
          status: {
            type: "string",
            enum: ["pending", "in_progress", "completed"],
            description: "Where the task stands",
          },
          priority: {
            type: "string",
            enum: ["high", "medium", "low"],
            description: "How much the task matters",
          },
        },
        required: ["content", "status", "priority"],
        additionalProperties: false,
      },
      description: "The whole list as it should be now; no more than one item in_progress at a time.",
    },
  },
  ["todos"],
);

export const webFetchSchema = object(
  {
    url: { type: "string", format: "uri", description: "The address to fetch" },
    prompt: str("What to find out from the fetched page"),
  },
  ["url", "prompt"],
);

export const writeSchema = object(
  {
    file_path: str("Absolute path of the file to write (a relative path is refused)"),
    content: str("The text the file should hold"),
  },
  ["file_path", "content"],
);
