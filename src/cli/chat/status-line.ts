import { type Component, truncateToWidth } from "@mariozechner/pi-tui";
import type { SessionConfigOption } from "../../acp/local-client.js";
import type { Style } from "./style.js";

/** Context use and cost as the agent's `usage_update` reports them. */
export interface UsageFigures {
  used: number;
  size: number;
  cost?: { amount: number; currency: string };
}

/**
 * The line under the composer: model · harness · mode · context used of the window · cost so
 * far (when the model has prices) · sandbox. Clipped, never wrapped, on a narrow terminal (the
 * sandbox goes first: it changes least).
 */
export class StatusLine implements Component {
  private settings: Record<string, string> = {};
  private usage: UsageFigures | undefined;
  /** False once the agent said commands run unconfined (no sandbox on this machine). */
  private sandboxed = true;

  constructor(private readonly style: Style) {}

  configure(config: SessionConfigOption[]): void {
    for (const option of config) {
      if ("currentValue" in option) this.settings[option.id] = String(option.currentValue);
    }
  }

  setUsage(usage: UsageFigures): void {
    this.usage = usage;
  }

  noSandbox(): void {
    this.sandboxed = false;
  }

  setting(id: string): string | undefined {
    return this.settings[id];
  }

  invalidate(): void {}

  render(width: number): string[] {
    // Nothing to say before a session exists (the first run's set-up).
    if (!this.settings.model) return [];
    const mode = this.settings.mode ?? "?";
    const confined = mode !== "full-access" && this.sandboxed;
    const parts = [
      this.settings.model ?? "?",
      this.settings.harness ?? "?",
      mode,
      contextText(this.usage),
      costText(this.usage?.cost),
      confined ? "sandboxed" : "unsandboxed",
    ].filter(Boolean);
    return [truncateToWidth(this.style.dim(parts.join(" · ")), Math.max(1, width))];
  }
}

function contextText(usage: UsageFigures | undefined): string {
  if (!usage) return "context 0%";
  const percent = usage.size > 0 ? Math.round((100 * usage.used) / usage.size) : 0;
  return `context ${percent}% · ${tokens(usage.used)}/${tokens(usage.size)}`;
}

function costText(cost: UsageFigures["cost"]): string {
  if (!cost) return "";
  const amount = cost.amount < 1 ? cost.amount.toFixed(4) : cost.amount.toFixed(2);
  return cost.currency === "USD" ? `$${amount}` : `${amount} ${cost.currency}`;
}

/** 131072 → "131k", 6120 → "6.1k", 950 → "950". */
export function tokens(count: number): string {
  if (count >= 10_000) return `${Math.round(count / 1000)}k`;
  return count >= 1000 ? `${(count / 1000).toFixed(1)}k` : String(count);
}
