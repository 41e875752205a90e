import type { SetupProblem } from "../../config/setup-problem.js";
import type { Config } from "../../config/types.js";
import type { EndpointProbe, StreamProbe } from "../../providers/probe-endpoint.js";
import { displayUrl } from "../../providers/provider-error.js";
import type { ProviderError } from "../../providers/types.js";
import { type Check, fail, ok, skip, warn } from "./check.js";

/** The text-protocol harness sessions switch to when an endpoint rejects tool definitions. */
export const TEXT_PROTOCOL_HARNESS = "hermes";

/**
 * Judges what `probeEndpoint` saw, one check per thing a user can fix: reachable, key, model
 * list, streaming, tool calls, usage. Every failure says which setting to change and where.
 */
export function endpointChecks(config: Config, probe: EndpointProbe): Check[] {
  const p = config.provider;
  const where = `${p.id} at ${displayUrl(p.baseUrl)}`;
  const baseUrlFix = `Start the server, or point the provider at it: \`OPENAI_BASE_URL=<url>\` for the default provider, or \`base_url\` under [model_providers.${p.id}] in ${config.file}.`;
  const errors = [probe.models, probe.stream, probe.tools].flatMap((r) => (r && !r.ok ? [r.error] : []));
  const checks: Check[] = [];

  const unreachable = errors.find((e) => e.code === "network" || e.code === "timeout");
  const answered =
    probe.models.ok || (probe.stream !== undefined && (probe.stream.ok || !isTransport(probe.stream.error)));
  if (!answered && unreachable) {
    checks.push(fail("endpoint", "Endpoint", unreachable.message, baseUrlFix));
    return [
      ...checks,
      ...skipped(["key", "models", "streaming", "tools", "usage"], "the endpoint is unreachable"),
    ];
  }
  checks.push(ok("endpoint", "Endpoint", `${where} answers`));

  const rejected = errors.find((e) => e.code === "auth");
  if (rejected) {
    const envKey = p.envKey ? `\`${p.envKey}\`` : `an \`env_key\` under [model_providers.${p.id}]`;
    const detail = p.apiKey
      ? `key rejected: ${rejected.message}`
      : `key rejected: no key was sent (${envKey} is not set)`;
    checks.push(
      fail(
        "key",
        "API key",
        detail,
        `Put a valid key for ${p.name} in ${envKey} (it is read from the environment, never from the file).`,
      ),
    );
    return [...checks, ...skipped(["models", "streaming", "tools", "usage"], "the key was rejected")];
  }
  checks.push(ok("key", "API key", p.apiKey ? `accepted (from ${p.envKey ?? "config"})` : "none needed"));

  checks.push(modelsCheck(config, probe.models));
  if (!probe.stream)
    return [...checks, ...skipped(["streaming", "tools", "usage"], "no model is configured")];
  checks.push(streamingCheck(config, probe.stream));
  if (!probe.tools) return [...checks, ...skipped(["tools", "usage"], "streaming failed")];
  checks.push(toolsCheck(config, probe.tools));
  checks.push(usageCheck(probe.stream, probe.tools));
  return checks;
}

/** The endpoint checks when the setup lacks what any request needs: one failure, the rest skipped. */
export function unconfiguredChecks(problem: SetupProblem): Check[] {
  const why = problem.kind === "unconfigured" ? "nothing is configured" : "there is no API key";
  return [
    fail("endpoint", "Endpoint", problem.what, problem.fix),
    ...skipped(["key", "models", "streaming", "tools", "usage"], why),
  ];
}

function modelsCheck(config: Config, models: EndpointProbe["models"]): Check {
  const title = "Models";
  const model = config.model;
  const sample = models.ok ? models.ids.slice(0, 5).join(", ") + (models.ids.length > 5 ? ", ..." : "") : "";
  if (!model) {
    const first = models.ok ? models.ids[0] : undefined;
    return fail(
      "models",
      title,
      `no model is configured${models.ok ? `; the endpoint lists ${models.ids.length}: ${sample}` : ""}`,
      `Set \`model = "<id>"\` in ${config.file} or pass \`-m <id>\`${first ? ` (e.g. -m ${first})` : ""}.`,
    );
  }
  if (!models.ok) {
    return warn(
      "models",
      title,
      `the endpoint does not list its models (${models.error.message})`,
      "Nothing to do if the model name is right; the editor's model picker then shows only configured models (`models = [...]`).",
    );
  }
  if (models.ids.includes(model))
    return ok("models", title, `${models.ids.length} listed, including ${model}`);
  return warn(
    "models",
    title,
    `${model} is not among the ${models.ids.length} models the endpoint lists (${sample || "none"})`,
    `Check the spelling, or pick a listed one with \`-m <id>\` or \`model = "<id>"\` in ${config.file}.`,
  );
}

function streamingCheck(config: Config, stream: StreamProbe): Check {
  const title = "Streaming";
  if (!stream.ok) {
    const fix =
      stream.error.code === "not_found"
        ? `Use a model id the endpoint serves (\`-m <id>\` or \`model = "<id>"\` in ${config.file}), and check that base_url ends in /v1 where the server expects it.`
        : "Check the server's log for this request; the message above is what it answered.";
    return fail("streaming", title, stream.error.message, fix);
  }
  if (!stream.streamed) {
    return warn(
      "streaming",
      title,
      `the model answered (finish: ${stream.finishReason}) but sent no text`,
      "Try a one-line prompt with `interpreter exec`; a model that answers nothing may need a different chat template on the server.",
    );
  }
  return ok("streaming", title, "a streamed answer arrived");
}

function toolsCheck(config: Config, tools: StreamProbe): Check {
  const title = "Tool calls";
  const switchFix = `Use the text-protocol harness: \`harness = "${TEXT_PROTOCOL_HARNESS}"\` in ${config.file} or \`--harness ${TEXT_PROTOCOL_HARNESS}\` (sessions also switch by themselves, once, with a notice).`;
  if (!tools.ok) {
    if (tools.error.code === "tools_unsupported") {
      return warn(
        "tools",
        title,
        `the endpoint rejects native tool calls: needs text-protocol harness ${TEXT_PROTOCOL_HARNESS}`,
        switchFix,
      );
    }
    return warn("tools", title, `a request with a tool failed: ${tools.error.message}`, switchFix);
  }
  if (!tools.called) {
    return warn(
      "tools",
      title,
      "the endpoint accepts tool definitions, but the model answered in text instead of calling the test tool",
      `If sessions show the model describing commands instead of running them, enable tool calling on the server (e.g. vLLM \`--enable-auto-tool-choice --tool-call-parser <family>\`, llama.cpp \`--jinja\`), or ${switchFix.charAt(0).toLowerCase()}${switchFix.slice(1)}`,
    );
  }
  return ok("tools", title, "native tool calls work");
}

function usageCheck(stream: StreamProbe, tools: StreamProbe): Check {
  if ((stream.ok && stream.usage) || (tools.ok && tools.usage)) {
    return ok("usage", "Usage", "token usage is reported in the stream");
  }
  return warn(
    "usage",
    "Usage",
    "the stream carries no token usage; token counts and context use will be estimated (bytes / 4)",
    "Update the server to one that honours `stream_options.include_usage` (vLLM, llama.cpp, Ollama 0.5+ and OpenAI do).",
  );
}

function skipped(ids: string[], why: string): Check[] {
  const titles: Record<string, string> = {
    key: "API key",
    models: "Models",
    streaming: "Streaming",
    tools: "Tool calls",
    usage: "Usage",
  };
  return ids.map((id) => skip(id, titles[id] ?? id, `not checked: ${why}`));
}

function isTransport(error: ProviderError): boolean {
  return error.code === "network" || error.code === "timeout";
}
