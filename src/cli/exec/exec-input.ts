import { readFile } from "node:fs/promises";
import path from "node:path";
import type { RunImage } from "../../acp/run-once.js";
import { ExecUsageError } from "./exec-args.js";

const IMAGE_TYPES: Record<string, string> = {
  ".png": "image/png",
  ".jpg": "image/jpeg",
  ".jpeg": "image/jpeg",
  ".gif": "image/gif",
  ".webp": "image/webp",
};

/**
 * The prompt: the argument, or standard input when the argument is `-` or absent and stdin is
 * not a terminal (the Codex SDK writes the prompt to stdin). Throws `ExecUsageError` when empty.
 */
export async function readPrompt(arg: string | undefined, stdin: NodeJS.ReadStream): Promise<string> {
  let text = arg;
  if (arg === "-" || (arg === undefined && !stdin.isTTY)) {
    const chunks: Buffer[] = [];
    for await (const chunk of stdin) chunks.push(Buffer.from(chunk));
    text = Buffer.concat(chunks).toString("utf8");
  }
  if (!text?.trim())
    throw new ExecUsageError('missing prompt (usage: interpreter exec "<prompt>", or pipe it in)');
  return text;
}

/** Reads `--image` files as ACP image blocks (base64); the type comes from the extension. */
export async function loadImages(files: string[], cwd: string): Promise<RunImage[]> {
  return Promise.all(
    files.map(async (file) => {
      const mimeType = IMAGE_TYPES[path.extname(file).toLowerCase()];
      if (!mimeType)
        throw new ExecUsageError(`--image ${file}: expected a ${Object.keys(IMAGE_TYPES).join(", ")} file`);
      try {
        return { mimeType, data: (await readFile(path.resolve(cwd, file))).toString("base64") };
      } catch (error) {
        throw new ExecUsageError(`--image ${file}: ${(error as Error).message}`);
      }
    }),
  );
}

/**
 * `--output-schema FILE` as an instruction after the prompt. ACP has no field for a response
 * format and the turn loop runs tools, so the schema travels as text: the model is asked to
 * end with a message that is only JSON matching it (as Codex's SDK expects in `finalResponse`).
 */
export async function schemaInstruction(file: string, cwd: string): Promise<string> {
  let schema: unknown;
  try {
    schema = JSON.parse(await readFile(path.resolve(cwd, file), "utf8"));
  } catch (error) {
    throw new ExecUsageError(`--output-schema ${file}: ${(error as Error).message}`);
  }
  if (typeof schema !== "object" || schema === null || Array.isArray(schema))
    throw new ExecUsageError(`--output-schema ${file}: expected a JSON object (a JSON schema)`);
  return [
    "Your final message must be only a JSON value that conforms to this JSON schema,",
    "with no Markdown fence and no other text:",
    JSON.stringify(schema),
  ].join("\n");
}
