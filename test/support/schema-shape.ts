/**
 * A tool schema with its prose replaced by `<description>`: names, types, bounds, enums,
 * defaults, `required` and key order stay. Goldens and capture comparisons hold this shape,
 * never the descriptions themselves. A `description` counts as prose when it is a string, or a
 * capture's `{ chars, sha256_8 }` stand-in; a parameter named `description` keeps its schema.
 */
export function schemaShape(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(schemaShape);
  if (value === null || typeof value !== "object") return value;
  return Object.fromEntries(
    Object.entries(value).map(([key, inner]) => [
      key,
      key === "description" && isProse(inner) ? "<description>" : schemaShape(inner),
    ]),
  );
}

const isProse = (value: unknown): boolean =>
  typeof value === "string" || (value !== null && typeof value === "object" && "sha256_8" in value);
