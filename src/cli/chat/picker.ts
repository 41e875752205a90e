import {
  type Component,
  Container,
  fuzzyFilter,
  getKeybindings,
  matchesKey,
  SelectList,
  Text,
  visibleWidth,
  wrapTextWithAnsi,
} from "@mariozechner/pi-tui";
import type { Style } from "./style.js";
import type { PickOptions, PickResult } from "./terminal-input.js";
import { selectListTheme } from "./tui-theme.js";

/** Rows shown at once; longer lists scroll with the arrows. */
const VISIBLE = 9;

/**
 * A list in the composer's place: ↑/↓ and Enter, type to filter (fuzzy, pi-tui's matcher),
 * Esc to leave. A numbered list (the first run's) takes a row by its digit instead of filtering.
 */
export class Picker extends Container {
  private filter = "";
  private list: SelectList;
  private readonly title: Text;
  private readonly hint: HintLine;
  /** The selected row's description in full (a row shows what fits of it). */
  private readonly detail: HintLine;

  constructor(
    private readonly options: PickOptions & { style: Style },
    private readonly done: (result: PickResult) => void,
  ) {
    super();
    const { style } = options;
    this.title = new Text(style.bold(options.title), 0, 0);
    this.hint = new HintLine(style);
    this.detail = new HintLine(style, true);
    this.list = this.makeList();
    this.list.setSelectedIndex(options.selected ?? 0);
    this.layout();
  }

  handleInput(data: string): void {
    const kb = getKeybindings();
    const extra = this.options.extraKeys ?? {};
    if (kb.matches(data, "tui.select.cancel")) this.done({ type: "cancel" });
    else if (kb.matches(data, "tui.select.confirm")) {
      const item = this.list.getSelectedItem();
      const index = item ? this.options.items.findIndex((i) => i.value === item.value) : -1;
      if (index >= 0) this.done({ type: "picked", index });
    } else if (this.filter === "" && Object.hasOwn(extra, data)) this.done({ type: "key", key: data });
    else if (this.options.numbered && /^[1-9]$/.test(data)) {
      const index = Number(data) - 1;
      if (index < this.options.items.length) this.done({ type: "picked", index });
    } else if (matchesKey(data, "backspace")) this.refilter(this.filter.slice(0, -1));
    else if (!this.options.numbered && data.length === 1 && data >= " ") this.refilter(this.filter + data);
    else {
      this.list.handleInput(data);
      this.showDetail();
    }
  }

  private refilter(filter: string): void {
    this.filter = filter;
    this.list = this.makeList();
    this.layout();
  }

  private makeList(): SelectList {
    const { items, style } = this.options;
    const shown = this.filter
      ? fuzzyFilter(items, this.filter, (item) => `${item.value} ${item.label}`)
      : items.map((item, i) =>
          this.options.numbered && i < 9 ? { ...item, label: `[${i + 1}] ${item.label}` } : item,
        );
    return new SelectList(shown, VISIBLE, selectListTheme(style), { maxPrimaryColumnWidth: 40 });
  }

  private layout(): void {
    this.clear();
    const extra = Object.entries(this.options.extraKeys ?? {}).map(([key, hint]) => ` · ${key} ${hint}`);
    const how = this.options.numbered ? "↑/↓ Enter or a number" : "↑/↓ Enter · type to filter";
    this.hint.text = `${this.filter ? `filter: ${this.filter} · ` : ""}${how}${extra.join("")} · Esc leaves`;
    this.addChild(this.title);
    this.addChild(this.list);
    this.addChild(this.detail);
    this.addChild(this.hint);
    this.showDetail();
  }

  private showDetail(): void {
    this.detail.text = this.list.getSelectedItem()?.description ?? "";
  }
}

/** A dimmed line, wrapped to the width (nothing when empty, or when `unlessFits` and it fits a row). */
class HintLine implements Component {
  text = "";
  constructor(
    private readonly style: Style,
    private readonly unlessFits = false,
  ) {}
  invalidate(): void {}
  render(width: number): string[] {
    // A row gives its description what the name column leaves (about 40 columns less).
    if (!this.text || (this.unlessFits && visibleWidth(this.text) <= width - 44)) return [];
    return wrapTextWithAnsi(this.style.dim(this.text), Math.max(1, width));
  }
}
