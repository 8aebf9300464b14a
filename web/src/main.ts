// The live map: sign in, show the game's view, keep it live, and send the actions the server listed.
import "./style.css";
import { ApiFailure, fetchWithSession, Live, request } from "./api";
import { PanZoom } from "./panzoom";
import { SignIn } from "./signin";
import { applyStaticTexts, setTexts, t, tOr } from "./texts";
import type { Action, View } from "./types";
import {
  $,
  actionButton,
  el,
  highlight,
  renderActions,
  renderLog,
  renderMarket,
  renderMine,
  renderPlayers,
  renderStatus,
  statusWords,
} from "./ui";

let view: View | null = null;
let gameId = "";
let busy = false;
const board = $("board");
const zoom = new PanZoom($("board-wrap"), board, { onTap: (target, x, y) => onBoardTap(near(target, x, y)) });

// ---- messages -------------------------------------------------------------------------------------------

let toastTimer = 0;
function toast(text: string, error = false): void {
  const box = $("toast");
  box.textContent = text;
  box.className = error ? "error" : "";
  box.hidden = false;
  clearTimeout(toastTimer);
  toastTimer = window.setTimeout(() => (box.hidden = true), error ? 6000 : 3500);
}

let moveTimer = 0;
function showMove(line: string): void {
  const box = $("move-line");
  box.textContent = line;
  box.hidden = false;
  clearTimeout(moveTimer);
  moveTimer = window.setTimeout(() => (box.hidden = true), 6000);
}

function failure(e: unknown): string {
  if (e instanceof ApiFailure) return e.error?.text ?? e.message;
  return e instanceof Error ? e.message : String(e);
}

// ---- the view -------------------------------------------------------------------------------------------

function svgSize(svg: SVGSVGElement): [number, number] {
  const vb = svg.viewBox.baseVal;
  if (vb && vb.width) return [vb.width, vb.height];
  return [svg.width.baseVal.value || 1000, svg.height.baseVal.value || 1000];
}

function show(next: View): void {
  if (view && next.game_id === view.game_id && next.version < view.version) return; // an older frame
  const t0 = performance.now();
  const boardChanged = !view || view.svg !== next.svg;
  view = next;
  setTexts(next.texts);
  document.documentElement.lang = next.locale || "en";
  if (next.texts["web.ui.title"]) document.title = next.texts["web.ui.title"];
  applyStaticTexts(document);
  if (boardChanged) {
    board.innerHTML = next.svg;
    const svg = board.querySelector("svg");
    if (svg) {
      svg.removeAttribute("width");
      svg.removeAttribute("height");
      const [w, h] = svgSize(svg);
      board.style.width = `${w}px`;
      board.style.height = `${h}px`;
      // The map's box (without the drawing's side panel): the server's, else the drawing's own map clip.
      let box = next.map_box ?? null;
      const clip = svg.querySelector("clipPath#mapclip rect");
      if (!box && clip) box = ["x", "y", "width", "height"].map((k) => Number(clip.getAttribute(k)));
      zoom.setContentSize(w, h, box && box.length === 4 && box.every(Number.isFinite) ? [box[0], box[1], box[2], box[3]] : null);
    }
  }
  renderPlayers(next);
  renderStatus(next);
  renderMarket(next);
  renderMine(next, () => void openTicketMap());
  renderActions(next, (a) => openPicker([a], a.label));
  if (next.pending) $("actions").hidden = true; // the decision's choices are in the pending box
  renderPending(next);
  renderLog(next);
  const move = next.move ?? null;
  highlight(board, move);
  if (move?.line) showMove(move.line);
  markTappable(next);
  $("app").classList.remove("loading");
  $("app").dataset.version = String(next.version);
  closePickerIfStale();
  $("app").dataset.drawMs = (performance.now() - t0).toFixed(1); // read by bench/bench_web_page.py
}

/** Routes, cities and cards with actions get a class, so a player sees what can be tapped. */
function markTappable(v: View): void {
  board.querySelectorAll(".can").forEach((n) => n.classList.remove("can"));
  for (const a of v.actions) {
    if (a.route != null) board.querySelectorAll(`[data-route="${CSS.escape(String(a.route))}"]`).forEach((n) => n.classList.add("can"));
    if (a.city != null) board.querySelectorAll(`[data-city="${CSS.escape(String(a.city))}"]`).forEach((n) => n.classList.add("can"));
  }
  document.querySelectorAll<HTMLElement>("#market [data-face-up], #market [data-deck]").forEach((b) => {
    b.classList.toggle("can", actionsForMarket(v, b).length > 0);
  });
}

// ---- taps -> the actions listed for that thing ----------------------------------------------------------

function actionsForMarket(v: View, b: HTMLElement): Action[] {
  if (b.dataset.faceUp != null) {
    const i = Number(b.dataset.faceUp);
    return v.actions.filter((a) => (a.slot ?? a.face_up) === i && a.kind.startsWith("draw"));
  }
  const kind = b.dataset.deck === "tickets" ? "draw_tickets" : "draw_blind";
  return v.actions.filter((a) => a.kind === kind);
}

const TARGET = "[data-route], [data-city]";

/** What a finger meant: the route or city under it, else the nearest one within a finger's reach (at the
 * whole-board zoom a phone draws a route a few pixels wide), one the reader can act on first. */
function near(target: Element, x: number, y: number): Element {
  if (target.closest(TARGET)) return target;
  let fallback: Element | null = null;
  for (const r of [6, 12, 18, 24]) {
    for (let k = 0; k < 8; k++) {
      const a = (k * Math.PI) / 4;
      const hit = document.elementFromPoint(x + r * Math.cos(a), y + r * Math.sin(a))?.closest(TARGET);
      if (!hit || !board.contains(hit)) continue;
      if (hit.classList.contains("can")) return hit;
      fallback ??= hit;
    }
  }
  return fallback ?? target;
}

function onBoardTap(target: Element): void {
  if (!view) return;
  const route = target.closest("[data-route]")?.getAttribute("data-route");
  const city = target.closest("[data-city]")?.getAttribute("data-city");
  let acts: Action[] = [];
  if (route != null) acts = view.actions.filter((a) => String(a.route) === route);
  if (!acts.length && city != null) acts = view.actions.filter((a) => String(a.city) === city);
  if (route == null && city == null) return;
  highlight(board, { line: "", routes: route != null ? [route] : [], cities: city != null ? [city] : [] }, "picked");
  if (!acts.length) {
    toast(view.me && view.actions.length ? tOr("web.ui.no_action_here", "✕") : statusWords(view));
    return;
  }
  openPicker(acts, acts[0].label);
}

document.addEventListener("click", (e) => {
  const b = (e.target as Element).closest<HTMLElement>("#market [data-face-up], #market [data-deck]");
  if (!b || !view) return;
  const acts = actionsForMarket(view, b);
  if (!acts.length) {
    toast(view.me && view.actions.length ? tOr("web.ui.no_action_here", "✕") : statusWords(view));
    return;
  }
  openPicker(acts, acts[0].label);
});

// The picker: the listed actions (e.g. the ways to pay for a route), one chosen, then Confirm.
let pickerVersion = -1;
function openPicker(acts: Action[], title: string): void {
  const box = $("picker");
  const card = box.querySelector(".card")!;
  let chosen: Action | null = acts.length === 1 ? acts[0] : null;
  const confirm = el("button", { type: "button", class: "primary", id: "confirm" }, tOr("web.ui.confirm", "✓"));
  const cancel = el("button", { type: "button", id: "cancel" }, t("web.ui.cancel"));
  // Several ways to do one thing (pay for one route): the thing is the title, each button says how.
  const same = acts.length > 1 && acts.every((a) => a.label === acts[0].label);
  const choices = acts.map((a) => {
    const shown = same && a.payment ? { ...a, label: a.payment, payment: null } : a;
    const b = actionButton(shown, () => {
      chosen = a;
      choices.forEach((c) => c.classList.toggle("chosen", c === b));
      confirm.disabled = false;
    });
    if (a === chosen) b.classList.add("chosen");
    return b;
  });
  confirm.disabled = !chosen;
  confirm.addEventListener("click", () => {
    if (chosen) void act(chosen);
  });
  cancel.addEventListener("click", closePicker);
  // One action: its button says it all; several ways to pay for one thing: "Pay with"; else "Other moves".
  const oneThing = acts.every((a) => a.payment && a.route === acts[0].route && a.city === acts[0].city);
  const words = same ? title : oneThing ? t("web.ui.pay_with") : t("web.ui.other_actions");
  const heading = acts.length === 1 ? [] : [el("h3", {}, words)];
  card.replaceChildren(
    ...heading,
    el("div", { class: "choices" }, ...choices),
    el("div", { class: "buttons" }, cancel, confirm),
  );
  pickerVersion = view?.version ?? -1;
  pickerOpenedAt = performance.now();
  box.hidden = false;
}

function closePicker(): void {
  $("picker").hidden = true;
  highlight(board, null, "picked");
}

function closePickerIfStale(): void {
  if (!$("picker").hidden && view && view.version !== pickerVersion) closePicker();
}

// The click that follows the tap which opened the picker lands on its backdrop: only a later tap closes it.
let pickerOpenedAt = 0;
$("picker").addEventListener("click", (e) => {
  if (e.target === $("picker") && performance.now() - pickerOpenedAt > 400) closePicker();
});

async function act(a: Action, extra: Record<string, unknown> = {}): Promise<void> {
  if (!view || busy) return;
  busy = true;
  document.body.classList.add("busy");
  try {
    const reply = await request<{ ok: boolean; view?: View }>("POST", `api/games/${encodeURIComponent(gameId)}/act`, {
      code: a.code,
      version: view.version,
      ...extra,
    });
    closePicker();
    if (reply.view) show(reply.view);
  } catch (e) {
    toast(failure(e), true);
    // The game moved on (409) or the move was refused: show the game as it is now.
    if (e instanceof ApiFailure && e.status >= 400 && e.status < 500 && e.status !== 429) {
      closePicker();
      try {
        show(await request<View>("GET", `api/games/${encodeURIComponent(gameId)}/view`));
      } catch {
        /* the live socket brings it */
      }
    }
  } finally {
    busy = false;
    document.body.classList.remove("busy");
  }
}

// ---- pending decisions (tunnels, tickets, stations, ...): the server's label and choices, nothing more ----

function renderPending(v: View): void {
  const box = $("pending");
  const p = v.pending;
  box.hidden = !p;
  if (!p) {
    // The sheet was opened wide for the decision: back to its size once the decision is made.
    if (box.querySelector(".ticket-list")) document.body.classList.remove("sheet-open");
    box.replaceChildren();
    return;
  }
  // A choice that offers tickets (keep some of them): one box per ticket, all ticked at first; the server
  // checks how many may be kept and says so in its hint.
  const parts: HTMLElement[] = [el("h2", {}, t("web.ui.pending")), el("p", { class: "label" }, p.label)];
  if (p.hint) parts.push(el("p", { class: "hint" }, p.hint));
  const buttons: HTMLElement[] = [];
  for (const c of p.choices) {
    const offered = c.offered ?? (c === p.choices[0] ? p.tickets : undefined);
    if (!offered) {
      buttons.push(actionButton(c, (a) => void act(a)));
      continue;
    }
    const picks = new Set(offered.map((tk) => String(tk.id)));
    const boxes = offered.map((tk) => {
      const input = el("input", { type: "checkbox", checked: "", "data-ticket": String(tk.id) });
      input.addEventListener("change", () => (input.checked ? picks.add(String(tk.id)) : picks.delete(String(tk.id))));
      const pts = tk.points != null ? [el("b", {}, String(tk.points))] : [];
      return el("label", { class: "ticket-choice" }, input, el("span", {}, tk.label), ...pts);
    });
    parts.push(el("div", { class: "ticket-list" }, ...boxes));
    if (c.min != null) parts.push(el("p", { class: "hint" }, t("web.ui.keep_hint", { min: c.min, max: c.max ?? offered.length })));
    buttons.push(actionButton(c, (a) => void act(a, { tickets: [...picks].map((id) => (/^\d+$/.test(id) ? Number(id) : id)) })));
  }
  parts.push(el("div", { class: "choices" }, ...buttons));
  box.replaceChildren(...parts);
  // A list of tickets needs the room; other decisions fit in the sheet as it is, the board stays large.
  if (p.choices.some((c) => c.offered)) document.body.classList.add("sheet-open");
}

// ---- the ticket map (own page only) --------------------------------------------------------------------

async function openTicketMap(): Promise<void> {
  const me = view?.me;
  if (!me) return;
  const box = $("overlay");
  const close = el("button", { type: "button", class: "close" }, "×");
  close.addEventListener("click", () => (box.hidden = true));
  const pic = el("div", { class: "pic" });
  try {
    if (me.ticket_map_svg) pic.innerHTML = me.ticket_map_svg;
    else if (me.ticket_map) {
      const res = await fetchWithSession(me.ticket_map);
      const type = res.headers.get("Content-Type") ?? "";
      if (type.includes("svg")) pic.innerHTML = await res.text();
      else pic.append(el("img", { src: URL.createObjectURL(await res.blob()), alt: t("web.ui.ticket_map") }));
    }
  } catch (e) {
    toast(failure(e), true);
    return;
  }
  pic.querySelector("svg")?.removeAttribute("height");
  box.querySelector(".card")!.replaceChildren(close, el("h3", {}, t("web.ui.ticket_map")), pic);
  box.hidden = false;
}

// ---- controls -------------------------------------------------------------------------------------------

document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape") return;
  closePicker();
  $("overlay").hidden = true;
});
$("overlay").addEventListener("click", (e) => {
  if (e.target === $("overlay")) $("overlay").hidden = true;
});
$("zoom-in").addEventListener("click", () => zoom.zoomBy(1.5));
$("zoom-out").addEventListener("click", () => zoom.zoomBy(1 / 1.5));
$("zoom-fit").addEventListener("click", () => zoom.fit());
$("grip").addEventListener("click", () => document.body.classList.toggle("sheet-open"));
let resizeTimer = 0;
window.addEventListener("resize", () => {
  clearTimeout(resizeTimer);
  resizeTimer = window.setTimeout(() => zoom.fit(), 100);
});

// ---- start ----------------------------------------------------------------------------------------------

async function start(): Promise<void> {
  const q = new URLSearchParams(location.search);
  const signing = new SignIn(q);
  $("splash-text").textContent = tOr("web.ui.loading", "");
  let firstView: (v: View) => void = () => {};
  const firstFrame = new Promise<View>((resolve) => (firstView = resolve));
  // An error frame closes the socket: the session ended (a page left open past it) or the page was refused.
  // The page signs in again once, the same way, and reconnects; a second refusal within a minute stays said.
  let refused: string | null = null;
  let signedAgainAt = -Infinity;
  let live: Live | null = null;
  try {
    const who = await signing.first();
    gameId = who.gameId;
    live = new Live(
      gameId,
      (frame) => {
        if (frame.type === "view") {
          refused = null;
          show(frame.view);
          firstView(frame.view);
        } else if (frame.type === "error") {
          toast(frame.error.text, true);
          refused = frame.error.code;
        }
      },
      (up) => {
        document.body.classList.toggle("offline", !up);
        if (up || refused === null) {
          if (!up) toast(t("web.ui.reconnecting"));
          return;
        }
        live?.stop();
        const expired = refused === "session_expired" || refused === "session";
        if (!expired || performance.now() - signedAgainAt < 60_000) return;
        signedAgainAt = performance.now();
        signing.again().then(
          () => live?.restart(),
          (e) => toast(failure(e), true),
        );
      },
    );
    // The socket's first frame is the view: no second reading of the game, unless it is slow to come (a
    // proxy that holds WebSockets back), then the view is read over HTTP.
    live.start();
    let timer = 0;
    const slow = new Promise<View>((resolve, reject) => {
      timer = window.setTimeout(() => {
        request<View>("GET", `api/games/${encodeURIComponent(gameId)}/view`).then(resolve, reject);
      }, 2500);
    });
    const first = await Promise.race([firstFrame, slow]);
    clearTimeout(timer);
    show(first);
    $("splash").hidden = true;
  } catch (e) {
    live?.stop();
    $("splash").classList.add("failed");
    $("splash-text").textContent = [tOr("web.ui.signin_failed", ""), failure(e)].filter(Boolean).join(": ");
  }
}

void start();
