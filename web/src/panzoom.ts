// Zoom and pan of the board with mouse drag, wheel and pinch (pointer events), and taps told apart from drags.
// The content is scaled with a CSS transform; the SVG keeps its own coordinates, so data-route hit areas work
// at any zoom.

export interface PanZoomOptions {
  onTap: (target: Element, clientX: number, clientY: number, pointerType: string) => void;
  maxZoom?: number; // times the fitted scale
  /** After every change of the scale or position (labels and touch targets keep their screen size). */
  onView?: (scale: number) => void;
  /** The smallest scale of the opening view on a narrow screen (where the board's words are readable). */
  readable?: number;
  /** The point of the drawing the opening view centres on (the reader's part of the board), or null. */
  centre?: () => [number, number] | null;
}

const TAP_SLOP = 8; // px a finger may move and still be a tap

export class PanZoom {
  private s = 1;
  private x = 0;
  private y = 0;
  private fitScale = 1;
  private pointers = new Map<number, { x: number; y: number }>();
  private down: { x: number; y: number; target: Element | null; moved: boolean } | null = null;
  private pinch: { dist: number; mx: number; my: number } | null = null;
  private contentW = 1;
  private contentH = 1;
  private focus: [number, number, number, number] | null = null;
  private touched = false; // the reader zoomed or panned since the last fit
  /** The wrapper's size as its ResizeObserver last said: a new drawing's view is set without reading the layout
   * (a read would lay the whole new SVG out at once, and again after the view's transform and names changed). */
  private size: { width: number; height: number } | null = null;

  constructor(
    private wrap: HTMLElement,
    private content: HTMLElement,
    private opts: PanZoomOptions,
  ) {
    wrap.addEventListener("pointerdown", (e) => this.onDown(e));
    wrap.addEventListener("pointermove", (e) => this.onMove(e));
    wrap.addEventListener("pointerup", (e) => this.onUp(e));
    wrap.addEventListener("pointercancel", (e) => this.onUp(e, true));
    wrap.addEventListener("lostpointercapture", (e) => this.onUp(e, true));
    wrap.addEventListener("wheel", (e) => this.onWheel(e), { passive: false });
    // A finger's tap is handled on pointerup; the click the browser makes up afterwards would land on whatever
    // the tap opened (the picker's buttons) at that spot. The zoom buttons keep their clicks.
    wrap.addEventListener(
      "touchend",
      (e) => {
        // (a touchend after the page scrolled is not cancelable: nothing to prevent, and the browser warns)
        if (e.cancelable && !(e.target as Element).closest("button")) e.preventDefault();
      },
      { passive: false },
    );
    // The wrapper changes size when the sheet grows or the window turns: fit again unless the reader moved.
    new ResizeObserver((entries) => {
      const box = entries[entries.length - 1].borderBoxSize?.[0];
      this.size = box ? { width: box.inlineSize, height: box.blockSize } : null;
      if (!this.touched) this.home();
      else this.apply();
    }).observe(wrap);
  }

  /** The content's natural size (a new drawing) and the box to fit (the map without its side panel, when the
   * server says where it is): keeps the zoom if nothing changed. */
  setContentSize(w: number, h: number, focus: [number, number, number, number] | null = null): void {
    const same = w === this.contentW && h === this.contentH && String(focus) === String(this.focus);
    this.contentW = w;
    this.contentH = h;
    this.focus = focus;
    if (!same) this.home();
  }

  /** The whole board: a wide screen shows the whole drawing; a narrow one (a phone) the map's box. */
  fit(): void {
    const r = this.frame();
    if (!r.width || !r.height) return;
    this.fitTo(r);
    this.touched = false;
    this.apply(r);
  }

  /** The wrapper's size: its observer's, else read from the layout (before the observer's first word). */
  private frame(): { width: number; height: number } {
    return this.size ?? this.wrap.getBoundingClientRect();
  }

  private fitTo(r: { width: number; height: number }): void {
    const [fx, fy, fw, fh] = this.focus && r.width < 700 ? this.focus : [0, 0, this.contentW, this.contentH];
    this.fitScale = Math.min(r.width / fw, r.height / fh) || 1;
    this.s = this.fitScale;
    this.x = (r.width - fw * this.s) / 2 - fx * this.s;
    this.y = Math.max(0, (r.height - fh * this.s) / 2) - fy * this.s;
  }

  /** The opening view: the map (without the drawing's side panel) filling the frame, no empty band, at least
   * at the readable scale, centred on the reader's part of it and never past its edges. (The frame's size read
   * once, the view set once: a new drawing's layout is forced once, not three times.) */
  home(): void {
    const r = this.frame();
    if (!r.width || !r.height) return;
    this.fitTo(r);
    const [fx, fy, fw, fh] = this.focus ?? [0, 0, this.contentW, this.contentH];
    const cover = Math.max(r.width / fw, r.height / fh);
    this.s = Math.min(this.fitScale * (this.opts.maxZoom ?? 8), Math.max(this.opts.readable ?? 0, cover));
    const [cx, cy] = this.opts.centre?.() ?? [fx + fw / 2, fy + fh / 2];
    this.x = Math.min(-fx * this.s, Math.max(r.width - (fx + fw) * this.s, r.width / 2 - cx * this.s));
    this.y = Math.min(-fy * this.s, Math.max(r.height - (fy + fh) * this.s, r.height / 2 - cy * this.s));
    this.touched = false;
    this.apply(r);
  }

  /** The drawing's point under a point of the page (client coordinates). */
  toDrawing(clientX: number, clientY: number): [number, number] {
    const r = this.wrap.getBoundingClientRect();
    return [(clientX - r.left - this.x) / this.s, (clientY - r.top - this.y) / this.s];
  }

  /** Screen pixels per unit of the drawing. */
  get pixels(): number {
    return this.s;
  }

  /** Zooms by a factor around a point of the wrapper (its centre by default). */
  zoomBy(factor: number, px?: number, py?: number): void {
    const r = this.frame();
    const cx = px ?? r.width / 2;
    const cy = py ?? r.height / 2;
    const max = this.fitScale * (this.opts.maxZoom ?? 8);
    const next = Math.min(max, Math.max(this.fitScale * 0.8, this.s * factor));
    const k = next / this.s;
    this.x = cx - (cx - this.x) * k;
    this.y = cy - (cy - this.y) * k;
    this.s = next;
    this.touched = true;
    this.apply();
  }

  get scale(): number {
    return this.s / this.fitScale;
  }

  private apply(r: { width: number; height: number } = this.frame()): void {
    // Keep at least a quarter of the board on screen.
    const w = this.contentW * this.s;
    const h = this.contentH * this.s;
    this.x = Math.min(r.width - w / 4, Math.max(-w * 0.75, this.x));
    this.y = Math.min(r.height - h / 4, Math.max(-h * 0.75, this.y));
    this.content.style.transform = `translate(${this.x}px, ${this.y}px) scale(${this.s})`;
    this.opts.onView?.(this.s);
  }

  private local(e: PointerEvent | WheelEvent): { x: number; y: number } {
    const r = this.wrap.getBoundingClientRect();
    return { x: e.clientX - r.left, y: e.clientY - r.top };
  }

  private onDown(e: PointerEvent): void {
    if ((e.target as Element).closest("button")) return;
    // A first finger (or the mouse) starts a new gesture: a pointer whose end was never seen is forgotten, or
    // it would turn the next tap into a pinch.
    if (e.isPrimary) {
      this.pointers.clear();
      this.pinch = null;
    }
    this.wrap.setPointerCapture(e.pointerId);
    this.pointers.set(e.pointerId, this.local(e));
    if (this.pointers.size === 1) {
      this.down = { ...this.local(e), target: e.target as Element, moved: false };
    } else {
      if (this.down) this.down.moved = true; // a second finger: never a tap
      this.pinch = this.pinchOf();
    }
  }

  private pinchOf(): { dist: number; mx: number; my: number } {
    const [a, b] = [...this.pointers.values()];
    return { dist: Math.hypot(a.x - b.x, a.y - b.y) || 1, mx: (a.x + b.x) / 2, my: (a.y + b.y) / 2 };
  }

  private onMove(e: PointerEvent): void {
    const prev = this.pointers.get(e.pointerId);
    if (!prev) return;
    const p = this.local(e);
    this.pointers.set(e.pointerId, p);
    if (this.pointers.size >= 2 && this.pinch) {
      const next = this.pinchOf();
      this.x += next.mx - this.pinch.mx;
      this.y += next.my - this.pinch.my;
      this.zoomBy(next.dist / this.pinch.dist, next.mx, next.my);
      this.pinch = next;
      return;
    }
    if (this.down && !this.down.moved && Math.hypot(p.x - this.down.x, p.y - this.down.y) < TAP_SLOP) return;
    if (this.down) this.down.moved = true;
    this.touched = true;
    this.x += p.x - prev.x;
    this.y += p.y - prev.y;
    this.apply();
  }

  private onUp(e: PointerEvent, cancelled = false): void {
    if (!this.pointers.has(e.pointerId)) return;
    this.pointers.delete(e.pointerId);
    if (this.pointers.size < 2) this.pinch = null;
    if (this.pointers.size === 0) {
      const d = this.down;
      this.down = null;
      if (d && !d.moved && !cancelled && d.target) this.opts.onTap(d.target, e.clientX, e.clientY, e.pointerType);
    }
  }

  private onWheel(e: WheelEvent): void {
    e.preventDefault();
    const p = this.local(e);
    if (e.ctrlKey || Math.abs(e.deltaY) >= Math.abs(e.deltaX)) {
      // Mouse wheel and trackpad pinch (ctrlKey) zoom around the pointer.
      this.zoomBy(Math.exp(-e.deltaY * (e.ctrlKey ? 0.01 : 0.0015)), p.x, p.y);
    } else {
      this.touched = true;
      this.x -= e.deltaX;
      this.y -= e.deltaY;
      this.apply();
    }
  }
}
