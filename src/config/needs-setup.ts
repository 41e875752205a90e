import { setupProblem } from "./setup-problem.js";
import type { Config } from "./types.js";

/**
 * True when the user has configured nothing at all: no config.toml, no model from any layer,
 * and the default `openai` provider neither moved (`OPENAI_BASE_URL`, `openai_base_url`) nor
 * given a key (`setupProblem`'s `unconfigured`). Any one of those settings means the user chose
 * something: then the daemon reports what is missing instead of offering the chat's set-up,
 * and an existing file, even an empty one, is never written over.
 */
export function needsSetup(options: { config: Config; configFileExists: boolean }): boolean {
  const { config } = options;
  return !options.configFileExists && setupProblem(config, config.model)?.kind === "unconfigured";
}
