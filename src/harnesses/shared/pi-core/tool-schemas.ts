import { PI_MAX_LINES } from "./truncate.js";

/**
 * pi's four tools as its coding agent declares them (badlogic/pi-mono, now earendil-works/pi,
 * `packages/coding-agent/src/core/tools/{read,bash,edit,write}.ts`; the wire form as
 * openinterpreter `codex-rs/core/src/harness/pi.rs` sends it, `strict: false`). Names,
 * parameter names, types, `required` and the presence of every description are pi's; the
 * description texts are our own wording of pi's.
 */

export const readDescription = `Read a file's contents. Text output is cut at ${PI_MAX_LINES} lines or 50KB, whichever comes first. For large files use offset/limit; when you need the whole file, keep reading with offset until you reach the end.`;

export const bashDescription = `Run a bash command in the current working directory and get back its stdout and stderr. Output keeps the last ${PI_MAX_LINES} lines or 50KB, whichever comes first; when it is cut, the full output is saved to a temp file. A timeout in seconds is optional.`;

export const editDescription =
  "Edit one file by exact text replacement. Each edits[].oldText must match a unique region of the original file, and no two regions may overlap. When two changes touch the same block or neighbouring lines, merge them into one edit instead of overlapping edits. Do not pad edits with large unchanged regions to bridge distant changes.";

export const writeDescription =
  "Write content to a file: the file is created when missing and overwritten when present. Missing parent directories are created.";

export const readSchema = {
  type: "object",
  required: ["path"],
  properties: {
    path: { type: "string", description: "File to read, by relative or absolute path" },
    offset: { type: "number", description: "First line to read, counting from 1" },
    limit: { type: "number", description: "Read no more than this many lines" },
  },
};

export const bashSchema = {
  type: "object",
  required: ["command"],
  properties: {
    command: { type: "string", description: "Command line for bash to run" },
    timeout: { type: "number", description: "Optional time limit in seconds; none unless given" },
  },
};

export const editSchema = {
  type: "object",
  required: ["path", "edits"],
  properties: {
    path: { type: "string", description: "File to edit, by relative or absolute path" },
    edits: {
      type: "array",
      description:
        "Targeted replacements (at least one), each matched against the original file rather than one after another. No overlapping or nested edits: changes to the same block or nearby lines belong in one edit.",
      items: {
        type: "object",
        required: ["oldText", "newText"],
        properties: {
          oldText: {
            type: "string",
            description:
              "The exact text to replace. It has to occur only once in the original file, and no other edits[].oldText in this call may overlap it.",
          },
          newText: { type: "string", description: "Text that replaces oldText in this edit." },
        },
        additionalProperties: false,
      },
    },
  },
  additionalProperties: false,
};

export const writeSchema = {
  type: "object",
  required: ["path", "content"],
  properties: {
    path: { type: "string", description: "File to write, by relative or absolute path" },
    content: { type: "string", description: "Text to put in the file" },
  },
};
