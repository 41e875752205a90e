/** Small strict checks the fake model's wires share. */

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === "object" && value !== null && !Array.isArray(value);
}

/** What is wrong with `value` for a type like `"string|array"`; undefined when it fits. */
export function typeProblem(value: unknown, type: string): string | undefined {
  const actual = value === null ? "null" : Array.isArray(value) ? "array" : typeof value;
  return type.split("|").includes(actual) ? undefined : `must be ${type}, not ${actual}`;
}

/** Unknown fields of `object` and fields of the wrong type, each as a readable problem at `at`. */
export function checkFields(
  at: string,
  object: Record<string, unknown>,
  fields: Record<string, string>,
): string[] {
  const problems: string[] = [];
  for (const [key, value] of Object.entries(object)) {
    const type = fields[key];
    if (type === undefined) problems.push(`${at} has unknown field ${key}`);
    else if (value !== undefined) {
      const problem = typeProblem(value, type);
      if (problem) problems.push(`${at}.${key} ${problem}`);
    }
  }
  return problems;
}

export function split(text: string, size: number): string[] {
  const pieces: string[] = [];
  for (let i = 0; i < text.length; i += size) pieces.push(text.slice(i, i + size));
  return pieces;
}
