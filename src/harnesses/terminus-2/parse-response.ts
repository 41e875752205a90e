/**
 * Terminus 2's JSON protocol parser: a port of `TerminusJSONPlainParser` (terminal-bench 0.2.18,
 * `terminal_bench/agents/terminus_2/terminus_json_plain_parser.py`), its error and warning texts
 * kept: the first balanced JSON object in the reply, its required fields, each command's
 * keystrokes and duration, and the two auto-fixes it tries before giving up.
 */

export interface ParsedCommand {
  keystrokes: string;
  duration: number;
}

export interface ParseResult {
  commands: ParsedCommand[];
  isTaskComplete: boolean;
  /** "" when the reply can be acted on. */
  error: string;
  /** Bulleted (`- …`) warnings, "" when none. */
  warning: string;
}

const REQUIRED = ["analysis", "plan", "commands"] as const;

const bullets = (warnings: string[]) => (warnings.length > 0 ? `- ${warnings.join("\n- ")}` : "");

export function parseResponse(response: string): ParseResult {
  const result = tryParse(response);
  if (!result.error) return result;
  for (const [name, fix] of AUTO_FIXES) {
    const fixed = fix(response, result.error);
    if (fixed === undefined) continue;
    const corrected = tryParse(fixed);
    if (corrected.error === "") {
      const auto = `AUTO-CORRECTED: ${name} - please fix this in future responses`;
      corrected.warning = corrected.warning ? `- ${auto}\n${corrected.warning}` : `- ${auto}`;
      return corrected;
    }
  }
  return result;
}

function tryParse(response: string): ParseResult {
  const warnings: string[] = [];
  const fail = (error: string): ParseResult => ({
    commands: [],
    isTaskComplete: false,
    error,
    warning: bullets(warnings),
  });
  const content = extractJson(response, warnings);
  if (!content) return fail("No valid JSON found in response");
  let data: unknown;
  try {
    data = JSON.parse(content);
  } catch (error) {
    const detail =
      content.length < 200
        ? ` | Content: ${pyRepr(content)}`
        : ` | Content preview: ${pyRepr(content.slice(0, 100))}...`;
    return fail(`Invalid JSON: ${(error as Error).message}${detail}`);
  }
  const invalid = validate(data, content, warnings);
  if (invalid) return fail(invalid);
  const object = data as Record<string, unknown>;
  let complete: unknown = object.task_complete ?? false;
  if (typeof complete === "string") complete = ["true", "1", "yes"].includes(complete.toLowerCase());
  const isTaskComplete = Boolean(complete);
  const parsed = parseCommands(object.commands as unknown[], warnings);
  if (typeof parsed === "string") {
    // A reply that declares the task complete only gets a warning for its broken commands.
    if (isTaskComplete) {
      warnings.push(parsed);
      return { commands: [], isTaskComplete: true, error: "", warning: bullets(warnings) };
    }
    return fail(parsed);
  }
  return { commands: parsed, isTaskComplete, error: "", warning: bullets(warnings) };
}

/** The first balanced `{…}` outside strings; text around it is a warning. */
function extractJson(response: string, warnings: string[]): string {
  let start = -1;
  let end = -1;
  let depth = 0;
  let inString = false;
  let escaped = false;
  for (let i = 0; i < response.length; i++) {
    const char = response[i];
    if (escaped) {
      escaped = false;
      continue;
    }
    if (char === "\\") {
      escaped = true;
      continue;
    }
    if (char === '"') {
      inString = !inString;
      continue;
    }
    if (inString) continue;
    if (char === "{") {
      if (depth === 0) start = i;
      depth++;
    } else if (char === "}") {
      depth--;
      if (depth === 0 && start !== -1) {
        end = i + 1;
        break;
      }
    }
  }
  if (start === -1 || end === -1) {
    warnings.push("No valid JSON object found");
    return "";
  }
  if (response.slice(0, start).trim()) warnings.push("Extra text detected before JSON object");
  if (response.slice(end).trim()) warnings.push("Extra text detected after JSON object");
  return response.slice(start, end);
}

function validate(data: unknown, content: string, warnings: string[]): string {
  if (typeof data !== "object" || data === null || Array.isArray(data))
    return "Response must be a JSON object";
  const object = data as Record<string, unknown>;
  const missing = REQUIRED.filter((field) => !(field in object));
  if (missing.length > 0) return `Missing required fields: ${missing.join(", ")}`;
  if (typeof object.analysis !== "string") warnings.push("Field 'analysis' should be a string");
  if (typeof object.plan !== "string") warnings.push("Field 'plan' should be a string");
  if (!Array.isArray(object.commands)) return "Field 'commands' must be an array";
  checkOrder(content, warnings);
  const complete = object.task_complete;
  if (
    complete !== undefined &&
    complete !== null &&
    typeof complete !== "boolean" &&
    typeof complete !== "string"
  ) {
    warnings.push("Field 'task_complete' should be a boolean or string");
  }
  return "";
}

function parseCommands(list: unknown[], warnings: string[]): ParsedCommand[] | string {
  const commands: ParsedCommand[] = [];
  for (const [i, item] of list.entries()) {
    const n = i + 1;
    if (typeof item !== "object" || item === null || Array.isArray(item))
      return `Command ${n} must be an object`;
    const command = item as Record<string, unknown>;
    if (!("keystrokes" in command)) return `Command ${n} missing required 'keystrokes' field`;
    const keystrokes = command.keystrokes;
    if (typeof keystrokes !== "string") return `Command ${n} 'keystrokes' must be a string`;
    let duration = 1.0;
    if (!("duration" in command)) warnings.push(`Command ${n}: Missing duration field, using default 1.0`);
    else if (typeof command.duration === "number") duration = command.duration;
    else warnings.push(`Command ${n}: Invalid duration value, using default 1.0`);
    const unknown = Object.keys(command).filter((key) => key !== "keystrokes" && key !== "duration");
    if (unknown.length > 0) warnings.push(`Command ${n}: Unknown fields: ${unknown.join(", ")}`);
    if (i < list.length - 1 && !keystrokes.endsWith("\n")) {
      warnings.push(
        `Command ${n} should end with newline when followed by another command. Otherwise the two commands will be concatenated together on the same line.`,
      );
    }
    commands.push({ keystrokes, duration });
  }
  return commands;
}

function checkOrder(content: string, warnings: string[]): void {
  const positions = REQUIRED.map((field) => ({
    field,
    at: content.search(new RegExp(`"(${field})"\\s*:`)),
  })).filter((p) => p.at !== -1);
  if (positions.length < 2) return;
  const expected = positions.map((p) => p.field);
  const actual = [...positions].sort((a, b) => a.at - b.at).map((p) => p.field);
  if (actual.join() !== expected.join()) {
    warnings.push(
      `Fields appear in wrong order. Found: ${actual.join(" → ")}, expected: ${expected.join(" → ")}`,
    );
  }
}

type Fix = (response: string, error: string) => string | undefined;

const AUTO_FIXES: Array<[string, Fix]> = [
  [
    "Fixed incomplete JSON by adding missing closing brace",
    (response, error) => {
      if (!/Invalid JSON|Expecting|Unterminated|No valid JSON found/.test(error)) return undefined;
      const missing = count(response, "{") - count(response, "}");
      return missing > 0 ? response + "}".repeat(missing) : undefined;
    },
  ],
  [
    "Extracted JSON from mixed content",
    (response) => {
      for (const match of response.matchAll(/\{[^{}]*(?:\{[^{}]*\}[^{}]*)*\}/g)) {
        try {
          JSON.parse(match[0]);
          return match[0];
        } catch {}
      }
      return undefined;
    },
  ],
];

function count(text: string, char: string): number {
  return text.split(char).length - 1;
}

/** Python's `repr` of a string, as the original's error message quotes the JSON. */
function pyRepr(text: string): string {
  const quote = text.includes("'") && !text.includes('"') ? '"' : "'";
  const body = text
    .replace(/\\/g, "\\\\")
    .replace(/\n/g, "\\n")
    .replace(/\r/g, "\\r")
    .replace(/\t/g, "\\t")
    .split(quote)
    .join(`\\${quote}`);
  return `${quote}${body}${quote}`;
}
