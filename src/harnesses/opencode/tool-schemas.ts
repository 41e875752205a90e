/**
 * opencode 1.18.33's parameter schemas as its tools declare them (`packages/opencode/src/tool/
 * {bash,edit,glob,grep,read,skill,task,todo,webfetch,write}.ts`, Effect Schema structs turned into
 * draft 2020-12 JSON Schema, `$schema` included). Property names, order, types, bounds,
 * `required`, `enum` and `default` are the original's; the description texts are our wording.
 */

const SCHEMA = "https://json-schema.org/draft/2020-12/schema";
/** Effect Schema's safe-integer bounds, as the serializer writes them. */
const MAX_SAFE = 9007199254740991;

export const bashSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    command: { type: "string", description: "The command line to run" },
    timeout: {
      minimum: -MAX_SAFE,
      exclusiveMinimum: 0,
      type: "integer",
      maximum: MAX_SAFE,
      description: "Time limit in milliseconds (optional)",
    },
    workdir: {
      type: "string",
      description:
        "Directory to run the command in; the current directory when left out. Use it rather than a 'cd' inside the command.",
    },
  },
  required: ["command"],
};

export const editSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    filePath: { type: "string", description: "Absolute path of the file to change" },
    oldString: { type: "string", description: "Text to be replaced" },
    newString: { type: "string", description: "Text to put in its place (must differ from oldString)" },
    replaceAll: { type: "boolean", description: "Replace every occurrence of oldString (false by default)" },
  },
  required: ["filePath", "oldString", "newString"],
};

export const globSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    pattern: { type: "string", description: "Glob pattern that file paths are matched against" },
    path: {
      type: "string",
      description:
        'Directory to search in; the current working directory when left out. Leave the field out for that default: never pass "undefined" or "null". When given, it must name an existing directory.',
    },
  },
  required: ["pattern"],
};

export const grepSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    pattern: { type: "string", description: "Regular expression to look for in file contents" },
    path: {
      type: "string",
      description: "Directory to search in; the current working directory by default.",
    },
    include: {
      type: "string",
      description: 'Only search files matching this pattern (e.g. "*.js", "*.{ts,tsx}")',
    },
  },
  required: ["pattern"],
};

export const readSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    filePath: { type: "string", description: "Absolute path of the file or directory to read" },
    offset: {
      minimum: 0,
      type: "integer",
      maximum: MAX_SAFE,
      description: "Line number to start reading at (counting from 1)",
    },
    limit: {
      minimum: 0,
      type: "integer",
      maximum: MAX_SAFE,
      description: "Most lines to read (2000 when left out)",
    },
  },
  required: ["filePath"],
};

export const skillSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    name: { type: "string", description: "Name of a skill listed in available_skills" },
  },
  required: ["name"],
};

export const taskSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    description: { type: "string", description: "The task in three to five words" },
    prompt: { type: "string", description: "What the agent is to do" },
    subagent_type: { type: "string", description: "Which of the specialized agents to run" },
    task_id: {
      type: "string",
      description:
        "Set only to continue an earlier task: pass the task_id it returned and the same subagent session goes on with its history, instead of a new one starting from nothing",
    },
    command: { type: "string", description: "The command that led to this task" },
  },
  required: ["description", "prompt", "subagent_type"],
};

export const todowriteSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    todos: {
      type: "array",
      items: {
        type: "object",
        properties: {
          content: { type: "string", description: "What the task is, briefly" },
          status: {
            type: "string",
            description: "Where the task stands: pending, in_progress, completed or cancelled",
          },
          priority: { type: "string", description: "How urgent it is: high, medium or low" },
        },
        required: ["content", "status", "priority"],
      },
      description: "The whole list, as it is now",
    },
  },
  required: ["todos"],
};

export const webfetchSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    url: { type: "string", description: "Address of the page to fetch" },
    format: {
      type: "string",
      enum: ["text", "markdown", "html"],
      description: "Form of the returned content: text, markdown or html (markdown when left out).",
      default: "markdown",
    },
    timeout: { type: "number", description: "Time limit in seconds (at most 120)" },
  },
  required: ["url"],
};

export const writeSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    content: { type: "string", description: "Text to put in the file" },
    filePath: {
      type: "string",
      description: "Absolute path of the file to write (an absolute path, not a relative one)",
    },
  },
  required: ["content", "filePath"],
};

export const applyPatchSchema = {
  $schema: SCHEMA,
  type: "object",
  properties: {
    patchText: { type: "string", description: "The whole patch, with every change it makes" },
  },
  required: ["patchText"],
};
