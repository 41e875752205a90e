import type { SessionWindow } from "../providers/served-window.js";

/** The working margin a first request needs on top of itself: room for answers, tool output and a few turns. */
export function workingMargin(window: number): number {
  return Math.max(Math.ceil(window * 0.25), MIN_MARGIN);
}

const MIN_MARGIN = 4096;

/** How a harness's first request (empty history) sits in a window, in estimated tokens. */
export interface WindowFit {
  requestTokens: number;
  margin: number;
  window: number;
  /** The request and its margin fit. */
  fits: boolean;
  /** The request alone is larger than the window: no answer can come back. */
  overflows: boolean;
  /** The smallest power of two from 8192 up that fits the request with its margin. */
  suggested: number;
}

export function judgeFit(requestTokens: number, window: number): WindowFit {
  const margin = workingMargin(window);
  let suggested = 8192;
  while (requestTokens + workingMargin(suggested) > suggested) suggested *= 2;
  return {
    requestTokens,
    margin,
    window,
    fits: requestTokens + margin <= window,
    overflows: requestTokens > window,
    suggested,
  };
}

/**
 * True when a turn should not be sent at all: the bare request alone is over a window the
 * server or the config stated. Strict servers refuse such a request and Ollama cuts its start
 * (the system prompt and tools), so the model would answer without them; an estimate of the
 * table or an assumed default only warns.
 */
export function fitStops(fit: WindowFit, window: SessionWindow): boolean {
  return fit.overflows && window.from !== "table" && !(window.from === "server" && window.served?.assumed);
}

/** A lean harness and its own first request, offered as the other remedy. */
export interface LeanHarness {
  id: string;
  fit: WindowFit;
}

/** What went wrong (with the counts) and what to do about it, for the session's notice and `doctor`. */
export function fitMessage(o: {
  fit: WindowFit;
  window: SessionWindow;
  harness: string;
  model: string;
  configFile: string;
  lean?: LeanHarness;
}): { problem: string; remedy: string } {
  const { fit, window } = o;
  const counts = `request ~${fit.requestTokens} tokens + margin ${fit.margin} > window ${fit.window}`;
  const problem = fit.overflows
    ? `The ${o.harness} harness's first request does not fit ${o.model}'s context window (${counts}, from ${windowSource(window)}): its own prompt and tools are larger than the window, so no answer can come back.`
    : `The ${o.harness} harness's first request leaves too little room in ${o.model}'s context window (${counts}, from ${windowSource(window)}): requests will soon be refused or cut, and the conversation will compact all the time.`;
  const raise = serverRemedy(window, fit.suggested, o.configFile);
  const lean = o.lean;
  const leanText = !lean
    ? ""
    : lean.fit.fits
      ? ` Or use the lean \`${lean.id}\` harness (first request ~${lean.fit.requestTokens} tokens): \`/harness ${lean.id}\`, \`--harness ${lean.id}\`, or \`harness = "${lean.id}"\` in ${o.configFile}.`
      : ` Even the lean \`${lean.id}\` harness (~${lean.fit.requestTokens} tokens) needs a window of ${lean.fit.suggested}.`;
  return { problem, remedy: `${raise}${leanText}` };
}

/** Where the window came from, in words. */
export function windowSource(window: SessionWindow): string {
  if (window.from === "config") return "`model_context_window` in config.toml";
  if (window.from === "table") return "the built-in table of model windows";
  return window.served?.source ?? "the server";
}

function serverRemedy(window: SessionWindow, size: number, configFile: string): string {
  const at = `Raise the window to at least ${size}`;
  if (window.from === "config") {
    return `${at}: \`model_context_window\` in ${configFile} sets it; raise it there if the server allows more, or raise the server's own setting first.`;
  }
  if (window.from === "table") {
    return `${at} where the model is served. The window is the built-in guess for this model; if the server gives it more, set \`model_context_window = <tokens>\` in ${configFile}.`;
  }
  const served = window.served;
  switch (served?.server) {
    case "llama.cpp":
      return served.slots
        ? `${at}: llama-server shares \`-c\` among its ${served.slots} parallel slots, so start it with \`-c ${size * served.slots}\`, or with \`-c ${size} --parallel 1\`.`
        : `${at}: start llama-server with \`-c ${size}\`.`;
    case "ollama":
      return served.modelfile
        ? `${at}: the model sets its own \`num_ctx\`, so put \`PARAMETER num_ctx ${size}\` in its Modelfile and \`ollama create\` it again.`
        : `${at}: start Ollama with \`OLLAMA_CONTEXT_LENGTH=${size} ollama serve\` (or set \`PARAMETER num_ctx ${size}\` in the model's Modelfile). \`ollama ps\` shows the context a loaded model runs with; if it is more, set \`model_context_window\` in ${configFile}.`;
    case "vllm":
      return `${at}: start vLLM with \`--max-model-len ${size}\`.`;
    case "sglang":
      return `${at}: start SGLang with \`--context-length ${size}\`.`;
    case "lmstudio":
      return `${at}: load the model in LM Studio with Context Length ${size} (its load settings, or \`lms load <model> --context-length ${size}\`).`;
    default:
      return `Use a model with a window of at least ${size} tokens.`;
  }
}
