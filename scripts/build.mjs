// Bundles src/ into dist/ (ESM, code-split so lazily imported modules stay out of the start path).
import { build } from "esbuild";

await build({
  entryPoints: ["src/cli/main.ts"],
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: "linked",
  logLevel: "warning",
  loader: { ".md": "text" },
});
