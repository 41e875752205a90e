// esbuild plugin: zod's `locales` namespace (every language's error messages, ~300 KB of the
// bundle once non-ASCII is escaped) becomes English only. zod itself configures `en`; nothing
// here or in the ACP SDK asks for another locale. Less source means less to parse from the
// plain entry point and less heap to deserialize from the snapshot.
import { createRequire } from "node:module";
import path from "node:path";

const english = createRequire(import.meta.url).resolve("zod/v4/locales/en.js");

export const zodEnglish = {
  name: "zod-english",
  setup(build) {
    build.onResolve({ filter: /^\.\.\/locales\/index\.js$/ }, (args) =>
      /[/\\]node_modules[/\\]zod[/\\]/.test(args.importer)
        ? { path: "locales", namespace: "zod-english" }
        : undefined,
    );
    build.onLoad({ filter: /.*/, namespace: "zod-english" }, () => ({
      contents: 'export { default as en } from "./en.js";',
      resolveDir: path.dirname(english),
      loader: "js",
    }));
  },
};
