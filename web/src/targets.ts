// What a finger meant on the board: the routes and cities within a finger's reach of the tap, measured on
// screen from the drawing's touch targets (render/hit_areas.py), whatever the zoom. At the whole-board zoom a
// phone draws a route a few pixels wide and a double route's two tracks a pixel apart: the nearest thing is
// taken, or every thing about as near when several are (the page then lets the reader choose).

/** A finger's radius, in CSS pixels (a mouse points closer: MOUSE_PX). */
export const FINGER_PX = 22;
export const MOUSE_PX = 10;
/** Things this much farther than the nearest one (CSS pixels) are still offered with it: where a finger lands
 * is that uncertain. */
const TIE_PX = 10;
/** At most this many things offered by one tap (the nearest). */
const OFFERED = 4;
/** Points sampled along a route track, in drawing units. */
const STEP = 4;

export interface Thing {
  kind: "route" | "city";
  id: string;
  distance: number; // CSS pixels from the tap to the thing's edge
}

interface Track {
  id: string;
  points: Float64Array; // x0, y0, x1, y1, ...
}

interface Disc {
  id: string;
  x: number;
  y: number;
  r: number;
}

export class Targets {
  private tracks: Track[] = [];
  private discs: Disc[] = [];

  /** Reads the touch targets of a new drawing. */
  attach(svg: SVGSVGElement): void {
    this.tracks = [];
    this.discs = [];
    for (const p of svg.querySelectorAll<SVGPathElement>("g.hits path[data-route]")) {
      // a track is a polyline (render/hit_areas.py: M x,y L x,y ...): its corners, read from its data
      const d = p.getAttribute("d") ?? "";
      if (/^M[-\d.,L\s]+$/.test(d)) {
        const numbers = (d.match(/-?\d+(?:\.\d+)?/g) ?? []).map(Number);
        if (numbers.length >= 4 && numbers.length % 2 === 0) {
          this.tracks.push({ id: p.getAttribute("data-route")!, points: Float64Array.from(numbers) });
          continue;
        }
      }
      const total = p.getTotalLength();
      const n = Math.max(2, Math.ceil(total / STEP) + 1);
      const points = new Float64Array(n * 2);
      for (let i = 0; i < n; i++) {
        const q = p.getPointAtLength((total * i) / (n - 1));
        points[2 * i] = q.x;
        points[2 * i + 1] = q.y;
      }
      this.tracks.push({ id: p.getAttribute("data-route")!, points });
    }
    for (const c of svg.querySelectorAll<SVGCircleElement>("g.hits circle[data-city]")) {
      this.discs.push({ id: c.getAttribute("data-city")!, x: c.cx.baseVal.value, y: c.cy.baseVal.value, r: c.r.baseVal.value });
    }
  }

  /** Every route and city within a finger of the drawing's point (x, y) at `scale` pixels per unit, nearest
   * first (a route drawn twice counts once, at its nearer drawing). */
  within(x: number, y: number, scale: number, radius = FINGER_PX): Thing[] {
    const reach = radius / scale;
    const best = new Map<string, Thing>();
    for (const t of this.tracks) {
      let d2 = Infinity;
      const p = t.points;
      for (let i = 0; i + 3 < p.length; i += 2) d2 = Math.min(d2, segment2(x, y, p[i], p[i + 1], p[i + 2], p[i + 3]));
      const d = Math.sqrt(d2);
      if (d > reach) continue;
      const key = `route:${t.id}`;
      const prev = best.get(key);
      if (!prev || prev.distance > d * scale) best.set(key, { kind: "route", id: t.id, distance: d * scale });
    }
    for (const c of this.discs) {
      const d = Math.max(0, Math.hypot(x - c.x, y - c.y) - c.r / 2);
      if (d > reach) continue;
      best.set(`city:${c.id}`, { kind: "city", id: c.id, distance: d * scale });
    }
    return [...best.values()].sort((a, b) => a.distance - b.distance);
  }
}

/** Of the things within reach, those the tap means: the ones the reader can act on when there are some, the
 * nearest and every one about as near. */
export function meant(things: Thing[], actionable: (t: Thing) => boolean, tie = TIE_PX): Thing[] {
  const can = things.filter(actionable);
  const pool = can.length ? can : things;
  if (!pool.length) return [];
  const nearest = pool[0].distance;
  return pool.filter((t) => t.distance <= nearest + tie).slice(0, OFFERED);
}

function segment2(px: number, py: number, ax: number, ay: number, bx: number, by: number): number {
  const dx = bx - ax;
  const dy = by - ay;
  const len = dx * dx + dy * dy;
  const k = len ? Math.max(0, Math.min(1, ((px - ax) * dx + (py - ay) * dy) / len)) : 0;
  const ex = ax + k * dx - px;
  const ey = ay + k * dy - py;
  return ex * ex + ey * ey;
}
