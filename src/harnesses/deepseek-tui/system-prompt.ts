import type { Mode } from "../../config/types.js";
import type { HarnessContext } from "../types.js";
import approvalAuto from "./approval-auto.md";
import approvalNever from "./approval-never.md";
import approvalSuggest from "./approval-suggest.md";
import authorityRecap from "./authority-recap.md";
import compactRelay from "./compact-relay.md";
import contextManagement from "./context-management.md";
import { projectContextPack } from "./context-pack.js";
import modeAgent from "./mode-agent.md";
import modePlan from "./mode-plan.md";
import modeYolo from "./mode-yolo.md";
import base from "./prompt-base.md";
import calm from "./prompt-calm.md";
import { projectInstructions } from "./workspace-context.js";

/** The CodeWhale version the environment block names. */
const CODEWHALE_VERSION = "0.8.44";

/**
 * CodeWhale's mode and approval overlays for our modes (`prompts.rs`: Agent asks, YOLO is
 * pre-approved, Plan blocks writes). Upstream always sends YOLO with Auto; we say what the
 * session's mode really does.
 */
function overlays(mode: Mode): [string, string] {
  if (mode === "plan" || mode === "read-only") return [modePlan, approvalNever];
  if (mode === "full-access") return [modeYolo, approvalAuto];
  if (mode === "auto") return [modeAgent, approvalAuto];
  return [modeAgent, approvalSuggest];
}

/**
 * The system prompt in CodeWhale 0.8.44's layers, most stable first: constitution and rules
 * (with the model id), personality, mode, approval policy, project instructions, the project
 * context pack, the environment, context management, the compaction relay template and the
 * authority recap; each trimmed at its end, joined by blank lines.
 */
export function deepseekTuiSystemPrompt(ctx: HarnessContext): string {
  const [mode, approval] = overlays(ctx.mode);
  const environment = `## Environment\n\n- lang: en\n- deepseek_version: ${CODEWHALE_VERSION}\n- platform: ${ctx.platform}\n- shell: ${ctx.shell}\n- pwd: ${ctx.cwd}`;
  return [
    base.replaceAll("{model_id}", ctx.model),
    calm,
    mode,
    approval,
    projectInstructions(ctx.cwd, ctx.instructions),
    projectContextPack(ctx.cwd),
    environment,
    contextManagement,
    compactRelay,
    authorityRecap,
  ]
    .map((section) => section.trimEnd())
    .join("\n\n");
}
