import { describe, expect, it } from "vitest";
import { parseCommandArgs } from "../src/cli/args.js";
import { overridesArgv } from "../src/cli/daemon-target.js";
import { daemonKey } from "../src/daemon/daemon-paths.js";

/**
 * A daemon started by `exec --daemon` or the chat gets only the overrides its key is made of:
 * it must parse them back to the same overrides, or it would listen where nobody waits.
 */
describe("the daemon's command line", () => {
  const cases = [
    [],
    ["-m", "mock-model"],
    ["--model=-dash-first", "--harness", "codex", "-p", "work", "--chat-completions"],
    ["-c", 'model_providers.x.base_url="http://127.0.0.1:1/v1"', "-c", "mode = auto", "--model=a b"],
  ];
  for (const argv of cases) {
    it(`gives the same overrides and key back: ${argv.join(" ") || "(none)"}`, () => {
      const { overrides } = parseCommandArgs(argv, {});
      const again = parseCommandArgs(overridesArgv(overrides), {}).overrides;
      expect(again).toEqual(overrides);
      const env = { PATH: "/usr/bin", OPENAI_API_KEY: "k" };
      expect(daemonKey({ version: "1", overrides: again, env })).toBe(
        daemonKey({ version: "1", overrides, env }),
      );
    });
  }
});
