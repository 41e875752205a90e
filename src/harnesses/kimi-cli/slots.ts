/**
 * Fills 1.49.0's `${NAME}` slots (its Jinja settings in `tools/utils.py` `load_desc` and
 * `soul/agent.py`): a slot without a value is left as it is.
 */
export function fillSlots(text: string, slots: Record<string, string | number>): string {
  return text.replace(/\$\{([A-Z_]+)\}/g, (match, name: string) =>
    name in slots ? String(slots[name]) : match,
  );
}
