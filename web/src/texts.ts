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
