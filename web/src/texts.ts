// Every word the page shows comes from the server's catalogue (view.texts, in the reader's language).
// A missing key shows as the key itself, so it is visible rather than silently English.

let texts: Record<string, string> = {};

export function setTexts(next: Record<string, string> | undefined): void {
  if (next) texts = { ...texts, ...next };
}

export function t(key: string, vars: Record<string, string | number> = {}): string {
  let s = texts[key] ?? key;
  for (const [k, v] of Object.entries(vars)) s = s.split(`{${k}}`).join(String(v));
  return s;
}

/** The words of a number (`key` with `{n}`): the form of `n` in the page's language (CLDR's categories, as the
 * server's catalogue has them: `<key>.one`, `<key>.other`, ...), else its `other` form. */
export function plural(key: string, n: number, vars: Record<string, string | number> = {}): string {
  let form = "other";
  try {
    form = new Intl.PluralRules(document.documentElement.lang || "en").select(n);
  } catch {
    // (a language the browser does not know: the other form)
  }
  const found = `${key}.${form}` in texts ? `${key}.${form}` : `${key}.other`;
  return t(found, { ...vars, n });
}

/** Names as one list in the page's language ("ann, bob and eve": the catalogue's `list.sep` and `list.and`). */
export function list(items: string[]): string {
  if (items.length < 2) return items.join("");
  return t("list.and", { items: items.slice(0, -1).join(t("list.sep")), last: items[items.length - 1] });
}

/** The words of `key`, or `otherwise` (no word: a symbol, or nothing) when the catalogue has none yet. */
export function tOr(key: string, otherwise: string, vars: Record<string, string | number> = {}): string {
  return key in texts ? t(key, vars) : otherwise;
}

/** Fills the static page's titles (data-text-title) and screen readers' labels (data-text-label) from keys. */
export function applyStaticTexts(root: ParentNode): void {
  root.querySelectorAll<HTMLElement>("[data-text-title]").forEach((el) => {
    const words = t(el.dataset.textTitle!);
    el.title = words;
    el.setAttribute("aria-label", words);
  });
  root.querySelectorAll<HTMLElement>("[data-text-label]").forEach((el) => {
    el.setAttribute("aria-label", t(el.dataset.textLabel!));
  });
}
