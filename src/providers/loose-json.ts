/**
 * Readers for JSON that servers send loosely (extra fields, odd types): a value of the wrong
 * kind reads as empty instead of failing, as every wire's stream readers want.
 */
export type Loose = Record<string, unknown>;

export function record(value: unknown): Loose {
  return value && typeof value === "object" && !Array.isArray(value) ? (value as Loose) : {};
}

export function string(value: unknown): string {
  return typeof value === "string" ? value : "";
}

export function number(value: unknown): number {
  return typeof value === "number" && Number.isFinite(value) ? value : 0;
}
