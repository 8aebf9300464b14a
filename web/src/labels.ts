// The board's city names keep a readable size on screen while the map scales (as map apps do): each name is
// scaled around its anchor by the inverse of the zoom, never below its drawn size, and a name that would then
// overlap one already shown waits for a closer zoom (hidden), the reader's own cities first.

/** A name's screen size at the least, in CSS pixels. */
export const MIN_NAME_PX = 12;

interface Name {
  texts: SVGTextElement[]; // the white halo and the ink, and the same name drawn again over a claimed route
  x: number;
  y: number;
  size: number; // font size in drawing units
  text: string;
}

export class Names {
  private names: Name[] = [];
  private first = new Set<string>(); // names shown before the others (the reader's tickets' cities)
  private scale = 1;
  private cullTimer = 0;

  /** Reads the drawing's names (render/board_places.py: a group of halos, then a group of inks, in one order). */
  attach(svg: SVGSVGElement): void {
    const byPlace = new Map<string, Name>();
    this.names = [];
    for (const ink of svg.querySelectorAll<SVGTextElement>("text.label")) {
      const group = ink.parentElement!;
      const inks = [...group.querySelectorAll<SVGTextElement>(":scope > text.label")];
      const halos = [...(group.previousElementSibling?.querySelectorAll<SVGTextElement>(":scope > text") ?? [])];
      const halo = halos.length === inks.length ? halos[inks.indexOf(ink)] : undefined;
      const x = Number(ink.getAttribute("x"));
      const y = Number(ink.getAttribute("y"));
      const key = `${x},${y},${ink.textContent}`;
      let name = byPlace.get(key);
      if (!name) {
        name = { texts: [], x, y, size: Number(ink.getAttribute("font-size")) || 16, text: ink.textContent ?? "" };
        byPlace.set(key, name);
        this.names.push(name);
      }
      name.texts.push(ink);
      if (halo) name.texts.push(halo);
    }
  }

  /** The names shown first when names overlap (matched by their words: no rule, only which to show). */
  prefer(words: string[]): void {
    this.first = new Set(this.names.filter((n) => words.some((w) => contains(w, n.text))).map((n) => n.text));
    this.scheduleCull();
  }

  /** The zoom changed (pixels per drawing unit): every name scaled to keep its screen size. */
  zoomed(scale: number): void {
    this.scale = scale;
    for (const n of this.names) {
      const k = Math.max(1, MIN_NAME_PX / (n.size * scale));
      const tf = k === 1 ? "" : `translate(${n.x} ${n.y}) scale(${k.toFixed(3)}) translate(${-n.x} ${-n.y})`;
      for (const t of n.texts) {
        if (tf) t.setAttribute("transform", tf);
        else t.removeAttribute("transform");
      }
    }
    this.scheduleCull();
  }

  private scheduleCull(): void {
    clearTimeout(this.cullTimer);
    this.cullTimer = window.setTimeout(() => this.cull(), 60);
  }

  /** Hides the names that would overlap a name already shown, the preferred ones and the larger ones first. */
  cull(): void {
    const shown: DOMRect[] = [];
    const order = [...this.names].sort((a, b) => Number(this.first.has(b.text)) - Number(this.first.has(a.text)));
    // every box read first, then the names hidden or shown (no layout between reads; hidden text keeps its box)
    const boxes = order.map((n) => n.texts[0].getBoundingClientRect());
    const pad = 1;
    order.forEach((n, i) => {
      const r = boxes[i];
      const clash = shown.some((s) => r.left < s.right + pad && r.right > s.left - pad && r.top < s.bottom && r.bottom > s.top);
      if (!clash) shown.push(r);
      for (const t of n.texts) {
        if (clash) t.setAttribute("visibility", "hidden");
        else t.removeAttribute("visibility");
      }
    });
  }

  get current(): number {
    return this.scale;
  }
}

/** Whether `name` is a whole name inside `haystack` ("Roma" in "Roma – Milano", not in "Romania"). */
export function contains(haystack: string, name: string): boolean {
  const i = haystack.indexOf(name);
  if (i < 0) return false;
  const before = haystack[i - 1] ?? " ";
  const after = haystack[i + name.length] ?? " ";
  return !/[\p{L}]/u.test(before) && !/[\p{L}]/u.test(after);
}
