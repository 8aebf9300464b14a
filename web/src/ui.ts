// Draws a view into the page: players, the board drawing, the market, the hand, tickets, actions and moves.
// Only what the server listed is shown; every word is the view's.
import { list, plural, t } from "./texts";
import type { Action, Card, Move, ScorePart, View } from "./types";

export const $ = <T extends HTMLElement = HTMLElement>(id: string): T => document.getElementById(id) as T;

export function el<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  attrs: Record<string, string> = {},
  ...children: (Node | string | null | undefined)[]
): HTMLElementTagNameMap[K] {
  const node = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === "class") node.className = v;
    else node.setAttribute(k, v);
  }
  for (const c of children) if (c != null) node.append(c);
  return node;
}

function heading(key: string): HTMLElement {
  return el("h2", {}, t(key));
}

/** A colour chip: a CSS colour, or a card/player colour name styled by the stylesheet (.c-red, ...). */
function swatch(color: string | null | undefined, mark?: string | null, letter?: string): HTMLElement {
  const s = el("span", { class: "swatch" });
  if (letter) {
    // with the colour-blind setting on: the colour's letter, as the drawing prints it on that colour's routes
    s.textContent = letter;
    s.classList.add("lettered");
  }
  if (!color) s.classList.add("c-none");
  else if (/^(#|rgb|hsl)/.test(color)) s.style.background = color;
  else s.classList.add(`c-${color.replace(/[^a-z0-9]/gi, "-")}`);
  if (mark) {
    // the seat's colour-blind mark, as the server drew it (the drawing's shape on that seat's trains)
    s.innerHTML = mark;
    s.classList.add("marked");
  }
  return s;
}

const ICONS: Record<string, string> = {
  score: '<path d="M8 1l2.2 4.6 5 .7-3.6 3.5.9 5L8 12.4 3.5 14.8l.9-5L.8 6.3l5-.7z"/>',
  trains: '<rect x="1" y="5" width="14" height="7" rx="1.5"/><circle cx="4.5" cy="13.5" r="1.5"/><circle cx="11.5" cy="13.5" r="1.5"/>',
  cards: '<rect x="3" y="1.5" width="10" height="13" rx="1.5" fill="none" stroke="currentColor" stroke-width="1.6"/>',
};

/** A number with a small drawn icon (no emoji: not every system has their font); the words are its title, the
 * catalogue's whole sentence with the number its label. */
function stat(icon: "score" | "trains" | "cards", value: number): HTMLElement {
  const words = t(`web.ui.${icon}`);
  const s = el("span", { class: "stat", title: words, "aria-label": t(`web.ui.${icon}_n`, { n: value }) });
  s.innerHTML = `<svg viewBox="0 0 16 16" width="13" height="13" fill="currentColor" aria-hidden="true">${ICONS[icon]}</svg>`;
  s.append(String(value));
  return s;
}

export function renderPlayers(view: View): void {
  const box = $("players");
  box.replaceChildren(
    ...view.players.map((p) => {
      const chip = el(
        "div",
        {
          class: `player${p.is_turn ? " turn" : ""}${view.me?.seat === p.seat ? " me" : ""}`,
          "data-seat": String(p.seat),
          role: "listitem",
          "aria-label": t("web.ui.player_label", {
            name: p.name,
            score: p.score ?? 0,
            trains: p.trains ?? 0,
            cards: p.cards ?? 0,
          }),
        },
        swatch(p.color, view.marks?.[String(p.seat)]),
        el("b", {}, p.name),
        stat("score", p.score ?? 0),
        stat("trains", p.trains ?? 0),
        stat("cards", p.cards ?? 0),
      );
      return chip;
    }),
  );
}

/** Whose turn it is, in words, for this reader. */
export function statusWords(view: View): string {
  const turn = view.players.filter((p) => p.is_turn);
  const names = list(turn.map((p) => p.name));
  const waiting = turn.length ? t("web.ui.waiting_for", { player: names }) : "";
  if (view.status === "finished" || view.status === "abandoned") return t("web.ui.game_over");
  if (!view.me) return turn.length ? t("web.ui.watching_waiting", { player: names }) : t("web.ui.spectator");
  if (view.actions.length || view.pending) return t("web.ui.your_turn");
  return waiting;
}

export function renderStatus(view: View): void {
  const words = statusWords(view);
  const status = $("status");
  status.className = view.me && (view.actions.length || view.pending) ? "mine" : "";
  status.textContent = words;
}

function cardFace(c: Card, extra: Record<string, string> = {}): HTMLElement {
  const b = el("button", { type: "button", class: "cardface", ...extra }, swatch(c.color, null, c.letter), el("span", {}, c.label));
  if (c.count != null) b.append(el("b", { class: "count" }, `×${c.count}`));
  return b;
}

export function renderMarket(view: View): void {
  const cards = view.face_up.map((c, i) => cardFace(c, { "data-face-up": String(c.index ?? i) }));
  const deck = el(
    "button",
    { type: "button", class: "cardface deck", "data-deck": "cards" },
    el("span", {}, t("web.ui.deck")),
    el("b", { class: "count" }, String(view.deck.cards)),
  );
  const tickets = el(
    "button",
    { type: "button", class: "cardface deck tickets", "data-deck": "tickets" },
    el("span", {}, t("web.ui.tickets_deck")),
    el("b", { class: "count" }, String(view.deck.tickets)),
  );
  $("market").replaceChildren(heading("web.ui.face_up"), el("div", { class: "row" }, ...cards, deck, tickets));
}

export function renderMine(view: View, openTicketMap: () => void): void {
  const hand = $("hand");
  const tickets = $("tickets");
  hand.hidden = tickets.hidden = !view.me;
  if (!view.me) {
    hand.replaceChildren();
    tickets.replaceChildren();
    return;
  }
  // The counters' words only: an emoji needs a font not every system has.
  const counters = (view.me.counters ?? []).map((c) => el("span", { class: "counter" }, c.label));
  hand.replaceChildren(
    heading("web.ui.hand"),
    el("div", { class: "row" }, ...view.me.hand.map((c) => cardFace(c, { disabled: "" }))),
    ...(counters.length ? [el("div", { class: "row counters" }, ...counters)] : []),
  );
  const list = el(
    "ul",
    { class: "tickets" },
    ...view.me.tickets.map((tk) =>
      el(
        "li",
        { class: tk.done ? "done" : "" },
        el("span", {}, tk.label),
        el("b", {}, `${tk.points}`),
        tk.done ? el("em", {}, t("web.ui.done")) : null,
      ),
    ),
  );
  const mapButton = view.me.ticket_map
    ? el("button", { type: "button", class: "link", id: "ticket-map-open" }, t("web.ui.ticket_map"))
    : null;
  mapButton?.addEventListener("click", openTicketMap);
  tickets.replaceChildren(heading("web.ui.tickets"), list, ...(mapButton ? [mapButton] : []));
}

export function actionButton(a: Action, onPick: (a: Action) => void): HTMLElement {
  const b = el("button", { type: "button", class: "action", "data-code": a.code, "data-kind": a.kind }, el("span", {}, a.label));
  if (a.payment && !a.label.includes(a.payment)) {
    b.append(el("small", {}, a.payment));
    b.setAttribute("aria-label", t("web.ui.action_paid", { action: a.label, payment: a.payment }));
  }
  b.addEventListener("click", () => onPick(a));
  return b;
}

export function renderActions(view: View, onPick: (a: Action) => void): void {
  const box = $("actions");
  box.hidden = view.actions.length === 0;
  // One menu per `group` the server gives each move (the chat's menus: draw, claim, tickets, stations...), in
  // the server's order, named from the catalogue; a long menu folds (a phone's sheet would be all buttons),
  // and what the reader unfolded stays unfolded when the next view comes.
  const open = new Set([...box.querySelectorAll<HTMLDetailsElement>("details[open]")].map((d) => d.dataset.group));
  const groups = new Map<string, Action[]>();
  for (const a of view.actions) {
    const g = a.group ?? "other";
    if (!groups.has(g)) groups.set(g, []);
    groups.get(g)!.push(a);
  }
  const parts: HTMLElement[] = [];
  for (const [g, acts] of groups) {
    const words = groupWords(g);
    const buttons = el("div", { class: "choices" }, ...acts.map((a) => actionButton(a, onPick)));
    if (acts.length <= 3) {
      parts.push(el("h2", {}, words), buttons);
      continue;
    }
    const det = el("details", { "data-group": g }, el("summary", {}, t("web.ui.group_n", { group: words, n: acts.length })), buttons);
    if (open.has(g)) det.open = true;
    parts.push(det);
  }
  box.replaceChildren(...parts);
}

/** A menu's name: the catalogue's word for the server's group, else "Other moves". */
export function groupWords(group: string): string {
  const key = `web.ui.group.${group}`;
  const words = t(key);
  return words === key ? t("web.ui.other_actions") : words;
}

/** The last move's line, at the top of the sheet (its routes are marked on the map), in its player's colour. */
export function renderLastMove(view: View): void {
  const box = $("last-move");
  const last = view.move?.line ? view.move : view.log[view.log.length - 1];
  box.hidden = !last?.line;
  if (!last?.line) return;
  const p = view.players.find((pl) => pl.seat === last.seat);
  box.replaceChildren(el("h2", {}, t("web.ui.last_move")), el("p", {}, last.line));
  box.style.borderLeftColor = p?.color ?? "";
}

/** At the end, the players by final score (the server's scores; ties as the server lists them), first in the
 * sheet so that it shows at once. Returns whether the game is over. */
export function renderRanking(view: View): boolean {
  const box = $("ranking");
  const over = view.status === "finished";
  box.hidden = !over;
  if (!over) {
    box.replaceChildren();
    return false;
  }
  // the engine's ranking, as the server sends it (its tie-breaks are the rules', not the page's)
  const order = [...view.players].sort((a, b) => (a.rank ?? 0) - (b.rank ?? 0) || a.seat - b.seat);
  box.replaceChildren(
    el("h2", {}, t("web.ui.ranking")),
    el(
      "ol",
      {},
      ...order.map((p) =>
        el(
          "li",
          { class: view.me?.seat === p.seat ? "me" : "", "data-seat": String(p.seat), "data-rank": String(p.rank ?? "") },
          swatch(p.color, view.marks?.[String(p.seat)]),
          el("span", {}, p.name),
          el("b", {}, plural("n.points", p.score ?? 0)),
          p.breakdown?.length ? el("div", { class: "parts" }, ...p.breakdown.map(part)) : null,
        ),
      ),
    ),
  );
  return true;
}

/** A signed number of points, as a score sheet writes a gain and a loss ("+20", "−8"). */
function signed(n: number): string {
  return n > 0 ? `+${n}` : n < 0 ? `\u2212${-n}` : "0";
}

/** One part of a final score, in the catalogue's words (the chat's for routes and bonuses). */
function part(p: ScorePart): HTMLElement {
  const words =
    p.kind === "routes"
      ? t("final.routes", { points: p.points })
      : p.kind === "tickets_done"
        ? t("web.ui.part_done", { n: p.count ?? 0, points: signed(p.points) })
        : p.kind === "tickets_failed"
          ? t("web.ui.part_failed", { n: p.count ?? 0, points: signed(p.points) })
          : t("web.ui.part_bonus", { bonus: t(`bonus.${p.kind}`), points: signed(p.points) });
  return el("span", { class: `part ${p.points < 0 ? "lost" : ""}`, "data-kind": p.kind, "data-points": String(p.points) }, words);
}

export function renderLog(view: View): void {
  const lines = [...view.log].reverse().slice(0, 40);
  $("log").replaceChildren(
    heading("web.ui.log"),
    el(
      "ol",
      {},
      ...lines.map((m) => {
        const li = el("li", {}, m.line);
        const p = view.players.find((pl) => pl.seat === m.seat);
        if (p) li.style.borderLeftColor = p.color;
        return li;
      }),
    ),
  );
}

/** Marks the routes and cities of a move on the board (and of the tapped route while choosing). */
export function highlight(board: HTMLElement, move: Pick<Move, "routes" | "cities"> | null | undefined, cls = "hl"): void {
  board.querySelectorAll(`.${cls}`).forEach((n) => n.classList.remove(cls));
  if (!move) return;
  for (const r of move.routes ?? []) board.querySelectorAll(`[data-route="${CSS.escape(String(r))}"]`).forEach((n) => n.classList.add(cls));
  for (const c of move.cities ?? []) board.querySelectorAll(`[data-city="${CSS.escape(String(c))}"]`).forEach((n) => n.classList.add(cls));
}
