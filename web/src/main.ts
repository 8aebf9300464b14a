// The live map: sign in, show the game's view, keep it live, and send the actions the server listed.
import "./style.css";
import { ApiFailure, fetchWithSession, Live, request } from "./api";
import { addPackagedFonts } from "./fonts";
import { Names } from "./labels";
import { PanZoom } from "./panzoom";
import { mergePieces, Pieces } from "./pieces";
import { FINGER_PX, meant, MOUSE_PX, Targets, type Thing } from "./targets";
import { Presence } from "./presence";
import { RichPresence, SCOPE } from "./richpresence";
import { Share } from "./share";
import { SignIn } from "./signin";
import { applyStaticTexts, setTexts, t, tOr } from "./texts";
import type { Acted, Action, View } from "./types";
import {
  $,
  actionButton,
  el,
  highlight,
  renderActions,
  renderLastMove,
  renderLog,
  renderMarket,
  renderRanking,
  renderMine,
  renderPlayers,
  renderStatus,
  statusWords,
} from "./ui";

performance.mark("ttr-script-run"); // the bundle parsed and its modules run (read by bench/bench_web_page.py)

/** Refusals of the live socket that pass by themselves (the server's database or load): the page keeps
 * reconnecting; any other (a session, a game gone) needs the player, and the page stops there. */
const PASSING = new Set(["storage_down", "unavailable", "busy", "slow_down", "rate", "internal"]);

let view: View | null = null;
let acting = ""; // the code of the move being sent
let gameId = "";
let busy = false;
let presence: Presence | null = null; // who is on the map (inside Discord only)
let richPresence: RichPresence | null = null; // the reader's Discord status (inside Discord, with its scope)
let share: Share | null = null; // the final scores' Share (inside Discord)
const board = $("board");
const names = new Names();
const targets = new Targets();
const pieces = new Pieces();
/** The opening scale on a phone: the drawing's names at about 8 px before they are scaled up to be read. */
const READABLE = 0.48;
const zoom = new PanZoom($("board-wrap"), board, {
  onTap: (_target, x, y, pointer) => onBoardTap(x, y, pointer === "mouse"),
  onView: (s) => {
    names.zoomed(s);
    markWidth(s);
  },
  readable: READABLE,
  centre: () => readerCentre(),
});

/** Drawing units per screen pixel, on the touch targets' group only (their marks keep their screen width): set
 * on the whole board, the property would restyle every element of the drawing at each zoom. */
function markWidth(s: number): void {
  board.querySelector<SVGGElement>("svg g.hits")?.style.setProperty("--px", String(1 / s));
}

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
  const boardChanged = !view || view.drawing !== next.drawing;
  view = next;
  setTexts(next.texts);
  document.documentElement.lang = next.locale || "en";
  if (next.texts["web.ui.title"]) document.title = next.texts["web.ui.title"];
  applyStaticTexts(document);
  if (boardChanged) void loadDrawing(next.drawing);
  else showPieces(next);
  renderPlayers(next);
  presence?.shown(next);
  richPresence?.shown(next);
  renderStatus(next);
  renderMarket(next);
  renderMine(next, () => void openTicketMap());
  renderActions(next, (a) => void act(a));
  if (next.pending) $("actions").hidden = true; // the decision's choices are in the pending box
  renderPending(next);
  renderLog(next);
  renderLastMove(next);
  const finished = renderRanking(next);
  share?.shown(next);
  if (finished && !wasFinished) $("sheet-body").scrollTop = 0; // the ranking first, at once
  wasFinished = finished;
  // The last move stays marked on the map until the next one (its line is in the sheet, not over the board).
  const move = next.move ?? null;
  if (move) lastMove = move;
  else if (boardChanged) lastMove = null;
  marks(next);
  $("app").classList.remove("loading");
  $("app").dataset.version = String(next.version);
  keepPicker(next);
  $("app").dataset.drawMs = (performance.now() - t0).toFixed(1); // read by bench/bench_web_page.py
}

/** The last move and the tappable things, marked on the drawing shown. */
function marks(v: View): void {
  highlight(board, lastMove);
  markTappable(v);
}

/** The game's pieces put on the drawing shown; the names read again when any changed (a name drawn again over
 * a claimed route is a piece). */
function showPieces(v: View): void {
  const svg = board.querySelector("svg");
  if (!svg || !pieces.show(v.pieces)) return;
  names.attach(svg);
  names.zoomed(zoom.pixels);
}

/** The board's base drawing, fetched at its own URL (the same all game: the browser keeps it), shown unless a
 * newer one was asked for meanwhile; the game's pieces are put on it. */
async function loadDrawing(drawing: string): Promise<void> {
  if (!drawing) return;
  let text: string;
  try {
    text = await (await fetchWithSession(drawing)).text();
  } catch (e) {
    toast(failure(e), true);
    return;
  }
  if (!view || view.drawing !== drawing) return;
  performance.mark("ttr-drawing-fetched"); // (marks read by bench/bench_web_page.py)
  board.innerHTML = text;
  const svg = board.querySelector("svg");
  if (!svg) return;
  svg.removeAttribute("width");
  svg.removeAttribute("height");
  const [w, h] = svgSize(svg);
  board.style.width = `${w}px`;
  board.style.height = `${h}px`;
  // The map's box (without the drawing's side panel): the server's, else the drawing's own map clip.
  let box = view.map_box ?? null;
  const clip = svg.querySelector("clipPath#mapclip rect");
  if (!box && clip) box = ["x", "y", "width", "height"].map((k) => Number(clip.getAttribute(k)));
  performance.mark("ttr-drawing-parsed");
  pieces.attach(svg);
  pieces.show(view.pieces);
  performance.mark("ttr-pieces-placed");
  names.attach(svg);
  targets.attach(svg);
  names.prefer(openTickets(view).map((tk) => tk.label)); // (the names drawn first where they would overlap)
  zoom.setContentSize(w, h, box && box.length === 4 && box.every(Number.isFinite) ? [box[0], box[1], box[2], box[3]] : null);
  names.zoomed(zoom.pixels);
  markWidth(zoom.pixels);
  marks(view);
  $("app").dataset.drawing = drawing;
  performance.mark("ttr-drawing-shown");
  requestAnimationFrame(() => setTimeout(() => performance.mark("ttr-drawing-painted"))); // (after its first paint)
}

let wasFinished = false;
let lastMove: View["move"] = null;

/** The words of the reader's tickets (their cities' names are shown first when names overlap). */
/** The reader's open and offered tickets. */
function openTickets(v: View): { label: string; cities: number[] }[] {
  const offered = v.pending?.choices.flatMap((c) => c.offered ?? []) ?? [];
  return [...(v.me?.tickets ?? []).filter((tk) => !tk.done), ...offered];
}

function ticketCities(v: View): Set<string> {
  return new Set(openTickets(v).flatMap((tk) => tk.cities.map(String)));
}

/** Where the opening view of a phone centres: the reader's open tickets' cities, else the last move's, else
 * the map's middle (null). */
function readerCentre(): [number, number] | null {
  const svg = board.querySelector("svg");
  if (!svg || !view) return null;
  const cities = ticketCities(view);
  const points: [number, number][] = [];
  for (const c of svg.querySelectorAll<SVGCircleElement>("g.hits circle[data-city]")) {
    if (cities.has(c.dataset.city ?? "")) points.push([c.cx.baseVal.value, c.cy.baseVal.value]);
  }
  if (!points.length) {
    const last = [...view.log].reverse().find((m) => m.routes?.length);
    for (const r of last?.routes ?? []) {
      const p = svg.querySelector<SVGPathElement>(`g.hits [data-route="${CSS.escape(String(r))}"]`);
      if (p) {
        const q = p.getPointAtLength(p.getTotalLength() / 2);
        points.push([q.x, q.y]);
      }
    }
  }
  if (!points.length) return null;
  return [points.reduce((a, p) => a + p[0], 0) / points.length, points.reduce((a, p) => a + p[1], 0) / points.length];
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
    return v.actions.filter((a) => a.slot === i && a.kind.startsWith("draw"));
  }
  const kind = b.dataset.deck === "tickets" ? "draw_tickets" : "draw_blind";
  return v.actions.filter((a) => a.kind === kind);
}

function actionsOf(v: View, thing: Thing): Action[] {
  return v.actions.filter((a) => (thing.kind === "route" ? a.route : a.city) != null && String(thing.kind === "route" ? a.route : a.city) === thing.id);
}

/** The routes and cities a tap at a point of the page would offer (nearest first): read by the browser tests
 * (tests/web_browser) to check that every route can be reached by a finger. */
function pick(clientX: number, clientY: number, everyRoute = false, mouse = false): Thing[] {
  const [x, y] = zoom.toDrawing(clientX, clientY);
  const v = view;
  const can = everyRoute ? (t: Thing) => t.kind === "route" : (t: Thing) => !!v && actionsOf(v, t).length > 0;
  // a mouse points where it means: a smaller reach, and fewer things offered as near
  return meant(targets.within(x, y, zoom.pixels, mouse ? MOUSE_PX : FINGER_PX), can, mouse ? 4 : undefined);
}
// (`everyRoute`: as on a turn when every route may be claimed, the hardest case for a finger)
(window as unknown as { ttrPick: unknown }).ttrPick = (x: number, y: number, everyRoute = false, mouse = false) =>
  pick(x, y, everyRoute, mouse).map((t) => `${t.kind}:${t.id}`);

function onBoardTap(clientX: number, clientY: number, mouse = false): void {
  if (!view) return;
  const things = pick(clientX, clientY, false, mouse);
  if (!things.length) return;
  const acts = things.flatMap((t) => actionsOf(view!, t));
  highlight(
    board,
    {
      routes: things.filter((t) => t.kind === "route").map((t) => Number(t.id)),
      cities: things.filter((t) => t.kind === "city").map((t) => Number(t.id)),
    },
    "picked",
  );
  if (!acts.length) {
    toast(view.me && view.actions.length ? tOr("web.ui.no_action_here", "✕") : statusWords(view));
    return;
  }
  // The route's (or routes') moves, each with its payment: one more tap makes it.
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
  // One move for that card (the deck, a face-up card): made at once, as the chat's button does.
  if (acts.length === 1) void act(acts[0]);
  else openPicker(acts, acts[0].label);
});

// The picker: the listed actions (e.g. the ways to pay for a route); the one tapped is made at once.
let pickerCodes: string[] = [];
let pickerTitle = "";
let pickerReturn: HTMLElement | null = null;
function openPicker(acts: Action[], title: string): void {
  const box = $("picker");
  const card = box.querySelector(".card")!;
  const cancel = el("button", { type: "button", id: "cancel" }, t("web.ui.cancel"));
  // Several ways to do one thing (pay for one route): the thing is the title, each button says how.
  const same = acts.length > 1 && acts.every((a) => a.label === acts[0].label);
  const choices = acts.map((a) => {
    const b = actionButton(same && a.payment ? { ...a, label: a.payment, payment: "" } : a, () => void act(a));
    // which route or city a button is for, on the map (two tracks of a double route read alike)
    const mark = () => highlight(board, { routes: a.route != null ? [a.route] : [], cities: a.city != null ? [a.city] : [] }, "picked");
    b.addEventListener("pointerenter", mark);
    b.addEventListener("focus", mark);
    return b;
  });
  cancel.addEventListener("click", closePicker);
  const oneThing = acts.every((a) => a.payment && a.route === acts[0].route && a.city === acts[0].city);
  // one thing's ways to pay: "Pay with"; several things (a chooser) or one move: their buttons say it all
  const words = same ? title : oneThing && acts.length > 1 ? t("web.ui.pay_with") : "";
  const heading = words ? [el("h3", { id: "picker-title" }, words)] : [];
  card.replaceChildren(...heading, el("div", { class: "choices" }, ...choices), el("div", { class: "buttons" }, cancel));
  box.setAttribute("aria-label", words || acts[0].label);
  pickerCodes = acts.map((a) => a.code);
  pickerTitle = title;
  pickerOpenedAt = performance.now();
  if (box.hidden) pickerReturn = document.activeElement instanceof HTMLElement ? document.activeElement : null;
  box.hidden = false;
  card.querySelector<HTMLElement>("button.action")?.focus({ preventScroll: true });
}

function closePicker(): void {
  const box = $("picker");
  if (box.hidden) return;
  box.hidden = true;
  pickerCodes = [];
  highlight(board, null, "picked");
  pickerReturn?.focus({ preventScroll: true });
  pickerReturn = null;
}

/** A new view while the picker is open: it stays with those of its moves still listed; when none is, the
 * reader is told so (a move from elsewhere, a timer) instead of the picker vanishing. */
function keepPicker(v: View): void {
  if ($("picker").hidden || !pickerCodes.length) return;
  const still = pickerCodes.map((c) => v.actions.find((a) => a.code === c)).filter((a): a is Action => !!a);
  if (still.length === pickerCodes.length) return;
  if (still.length) {
    openPicker(still, pickerTitle);
    return;
  }
  closePicker();
  toast(tOr("web.ui.choice_gone", "✕"), true);
}

// The click that follows the tap which opened the picker lands on its backdrop: only a later tap closes it.
let pickerOpenedAt = 0;
$("picker").addEventListener("click", (e) => {
  if (e.target === $("picker") && performance.now() - pickerOpenedAt > 400) closePicker();
});

async function act(a: Action, extra: Record<string, unknown> = {}): Promise<void> {
  if (!view || busy) return;
  busy = true;
  acting = a.code;
  // The picker goes at once (the move's own view, or the live frame that brings it, may come first).
  pickerCodes = [];
  closePicker();
  document.body.classList.add("busy");
  try {
    const reply = await request<Acted>("POST", `api/games/${encodeURIComponent(gameId)}/act`, {
      code: a.code,
      version: view.version,
      ...extra,
    });
    closePicker();
    awaitVersion(reply.version);
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
    acting = "";
    busy = false;
    document.body.classList.remove("busy");
  }
}

/** The move's view comes over the live socket, as every page's; should it not come soon (the socket down), it
 * is read over HTTP. */
let versionTimer = 0;
function awaitVersion(version: number): void {
  clearTimeout(versionTimer);
  versionTimer = window.setTimeout(() => {
    if (!view || view.version >= version) return;
    request<View>("GET", `api/games/${encodeURIComponent(gameId)}/view`).then(show, () => undefined);
  }, 2500);
}

// ---- pending decisions (tunnels, tickets, stations, ...): the server's label and choices, nothing more ----

/** The tickets ticked in a ticket choice in progress: they stay as the reader left them across frames (other
 * players' moves), for as long as the same choice is offered. */
let ticking: { key: string; picks: Set<string>; changed: boolean } | null = null;

function renderPending(v: View): void {
  const box = $("pending");
  const p = v.pending;
  box.hidden = !p;
  const keep = p?.choices.find((c) => c.offered);
  const key = keep ? `${keep.code}|${keep.offered!.map((tk) => tk.id).join(",")}` : "";
  if (ticking && ticking.key !== key) {
    // The choice is gone without this page making it (a timer, the chat): say so rather than reset silently.
    if (ticking.changed && !acting && !key) toast(tOr("web.ui.choice_gone", "✕"), true);
    ticking = null;
  }
  if (!p) {
    delete box.dataset.sig;
    box.replaceChildren();
    markTicketCities([]);
    return;
  }
  // The same ticket choice as already shown: left as it is (ticks, focus, scroll).
  const sig = JSON.stringify(p.choices.map((c) => [c.code, c.label, (c.offered ?? []).map((tk) => tk.id)]));
  if (key && box.dataset.sig === sig) {
    // (a new drawing came with the frame: its cities marked again)
    const picks = ticking?.picks;
    markTicketCities((keep?.offered ?? []).filter((o) => picks?.has(String(o.id))).flatMap((o) => o.cities));
    return;
  }
  box.dataset.sig = sig;
  const parts: HTMLElement[] = [el("h2", {}, t("web.ui.pending")), el("p", { class: "label" }, p.label)];
  const buttons: HTMLElement[] = [];
  for (const c of p.choices) {
    const offered = c.offered;
    if (!offered) {
      buttons.push(actionButton(c, (a) => void act(a)));
      continue;
    }
    // One box per ticket, all ticked at first (keeping them all is one tap); the server says how many may go.
    ticking ??= { key, picks: new Set(offered.map((tk) => String(tk.id))), changed: false };
    const state = ticking;
    const boxes = offered.map((tk) => {
      const attrs: Record<string, string> = { type: "checkbox", "data-ticket": String(tk.id) };
      if (state.picks.has(String(tk.id))) attrs.checked = "";
      const input = el("input", attrs);
      input.addEventListener("change", () => {
        state.changed = true;
        if (input.checked) state.picks.add(String(tk.id));
        else state.picks.delete(String(tk.id));
        markTicketCities(offered.filter((o) => state.picks.has(String(o.id))).flatMap((o) => o.cities));
      });
      const pts = tk.points != null ? [el("b", {}, String(tk.points))] : [];
      return el("label", { class: "ticket-choice" }, input, el("span", {}, tk.label), ...pts);
    });
    parts.push(el("div", { class: "ticket-list" }, ...boxes));
    markTicketCities(offered.filter((o) => state.picks.has(String(o.id))).flatMap((o) => o.cities));
    if (c.min != null) parts.push(el("p", { class: "hint" }, t("web.ui.keep_hint", { min: c.min, max: c.max ?? offered.length })));
    buttons.push(actionButton(c, (a) => void act(a, { tickets: [...state.picks].map((id) => (/^\d+$/.test(id) ? Number(id) : id)) })));
  }
  parts.push(el("div", { class: "choices" }, ...buttons));
  box.replaceChildren(...parts);
}

/** The cities of the tickets ticked in a ticket choice, marked on the map (by the ids the server gives each
 * ticket: which cities to mark, no rule). */
function markTicketCities(cities: number[]): void {
  board.querySelectorAll("[data-city].ticket").forEach((n) => n.classList.remove("ticket"));
  if (!cities.length) return;
  const ids = new Set(cities.map(String));
  board.querySelectorAll<SVGElement>("g.hits [data-city]").forEach((c) => {
    if (ids.has(c.dataset.city ?? "")) c.classList.add("ticket");
  });
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
    if (me.ticket_map) {
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
  let liveView: View | null = null;
  try {
    const who = await signing.first();
    gameId = who.gameId;
    const sdk = signing.discord;
    if (sdk) {
      presence = new Presence(sdk);
      richPresence = new RichPresence(sdk, () => signing.scopes.includes(SCOPE));
      share = new Share(sdk, () => signing.accessToken);
      // (who else is here, the reader's status: niceties, once Discord's client has the token; the map's socket
      // opens meanwhile)
      signing.authenticated.then(
        () => {
          presence?.start().catch(() => undefined);
          if (view) richPresence?.shown(view);
        },
        () => undefined,
      );
    }
    // The session's answer brings the first view: drawn now, while the socket opens (its first frame, the same
    // version, is then not drawn again).
    const early = who.view?.game_id === gameId ? who.view : null;
    if (early) {
      show(early);
      $("splash").hidden = true;
    }
    live = new Live(
      gameId,
      (frame) => {
        if (frame.type === "view") {
          refused = null;
          // a frame carries the fields that changed since this socket's previous one (its first: all)
          // (its pieces: those added or changed, null for each gone)
          if (liveView && frame.view.game_id === undefined) {
            const held = frame.view.pieces ? mergePieces(liveView.pieces, frame.view.pieces) : liveView.pieces;
            liveView = { ...liveView, ...frame.view, pieces: held };
          } else if (early && !liveView && frame.view.version === early.version) {
            liveView = frame.view as View; // (drawn already from the session's answer)
            firstView(liveView);
            return;
          } else liveView = frame.view as View;
          show(liveView);
          firstView(liveView);
        } else if (frame.type === "error") {
          toast(frame.error.text, true);
          refused = frame.error.code;
        }
      },
      (up) => {
        document.body.classList.toggle("offline", !up);
        if (!up && refused !== null && PASSING.has(refused)) {
          refused = null; // said already; waited out, the socket reconnecting with its backoff
          return;
        }
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
    if (early) return;
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

addPackagedFonts();
void start();
