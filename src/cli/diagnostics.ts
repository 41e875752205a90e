import { monitorEventLoopDelay } from "node:perf_hooks";
import type { Logger } from "../config/logger.js";

/** Opt-in process figures for load tests and soak runs: `INTERPRETER_DIAGNOSTICS=1`. */
export interface Diagnostics {
  /** Logs the figures once (`msg: "diagnostics"`) and stops measuring; later calls do nothing. */
  stop(): void;
}

/** The figures as logged; milliseconds and megabytes, rounded to 0.1. */
export interface DiagnosticsFigures {
  eventLoopDelayMs: { p50: number; p90: number; p99: number; max: number; mean: number };
  /** Peak resident set size of the daemon process over its lifetime. */
  maxRssMb: number;
  uptimeMs: number;
}

/**
 * Samples event-loop delay with `monitorEventLoopDelay` (a timer every 10 ms; the delay is how
 * much later than that each tick ran) and logs percentiles plus the peak RSS at `stop()`.
 * Returns undefined unless the environment asks for it, so a normal daemon pays nothing.
 */
export function startDiagnostics(options: {
  env: NodeJS.ProcessEnv;
  logger: Logger;
}): Diagnostics | undefined {
  if (options.env.INTERPRETER_DIAGNOSTICS !== "1") return undefined;
  const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
  histogram.enable();
  const started = performance.now();
  let stopped = false;
  return {
    stop() {
      if (stopped) return;
      stopped = true;
      histogram.disable();
      // The histogram holds whole timer intervals; the delay is what exceeds the interval.
      const ms = (ns: number) => round(Math.max(0, ns / 1e6 - RESOLUTION_MS));
      const figures: DiagnosticsFigures = {
        eventLoopDelayMs: {
          p50: ms(histogram.percentile(50)),
          p90: ms(histogram.percentile(90)),
          p99: ms(histogram.percentile(99)),
          max: ms(histogram.max),
          mean: ms(histogram.mean),
        },
        // resourceUsage().maxRSS is in kilobytes.
        maxRssMb: round(process.resourceUsage().maxRSS / 1024),
        uptimeMs: round(performance.now() - started),
      };
      options.logger.info({ diagnostics: figures }, "diagnostics");
    },
  };
}

const RESOLUTION_MS = 10;
const round = (x: number): number => Math.round(x * 10) / 10;
