/**
 * Figures measured by the reliability suite. Always printed to stderr; written as
 * `<dir>/reliability-<name>.json` only when `RELIABILITY_FIGURES_DIR` names a folder, which
 * `scripts/soak.mjs` sets (a plain test run never writes into the repository).
 */
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";

export function writeFigures(name: string, figures: Record<string, unknown>): void {
  process.stderr.write(`reliability figures, ${name}: ${JSON.stringify(figures)}\n`);
  const dir = process.env.RELIABILITY_FIGURES_DIR;
  if (!dir) return;
  mkdirSync(dir, { recursive: true });
  const file = path.join(dir, `reliability-${name}.json`);
  writeFileSync(file, `${JSON.stringify({ measuredAt: new Date().toISOString(), ...figures }, null, 2)}\n`);
}
