// The game's pieces on the board's base drawing (render/board_live.py): SVG fragments the server made, each put
// in its layer's group (`data-layer`, the id's first part) in the order of the ids, replaced when it changes,
// removed when it is gone. The page draws nothing itself.

const SVG_NS = "http://www.w3.org/2000/svg";

/** A frame's pieces merged into the view's: a frame carries those added or changed, and null for each gone. */
export function mergePieces(
  held: Record<string, string | null> | undefined,
  frame: Record<string, string | null>,
): Record<string, string | null> {
  const out = { ...(held ?? {}) };
  for (const [id, svg] of Object.entries(frame)) {
    if (svg == null) delete out[id];
    else out[id] = svg;
  }
  return out;
}

export class Pieces {
  private svg: SVGSVGElement | null = null;
  private shown = new Map<string, string>();

  /** A new base drawing (no piece in it yet). */
  attach(svg: SVGSVGElement): void {
    this.svg = svg;
    this.shown.clear();
  }

  /** The drawing brought to `pieces`; true when anything changed. */
  show(pieces: Record<string, string | null> | undefined): boolean {
    const svg = this.svg;
    if (!svg) return false;
    const want = pieces ?? {};
    let changed = false;
    for (const id of [...this.shown.keys()]) {
      if (want[id] != null) continue;
      svg.querySelector(`[data-piece="${CSS.escape(id)}"]`)?.remove();
      this.shown.delete(id);
      changed = true;
    }
    for (const id of Object.keys(want).sort()) {
      const text = want[id];
      if (text == null || this.shown.get(id) === text) continue;
      const layer = svg.querySelector(`g[data-layer="${CSS.escape(id.split(".")[0])}"]`);
      if (!layer) continue;
      let g = layer.querySelector(`:scope > [data-piece="${CSS.escape(id)}"]`);
      if (!g) {
        g = document.createElementNS(SVG_NS, "g");
        g.setAttribute("data-piece", id);
        const after = [...layer.children].find((c) => (c.getAttribute("data-piece") ?? "") > id) ?? null;
        layer.insertBefore(g, after);
      }
      g.innerHTML = text;
      this.shown.set(id, text);
      changed = true;
    }
    return changed;
  }
}
