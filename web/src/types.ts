// The view the server sends (bot/web/PROTOCOL.md). The page reads it and decides no rule.

export interface Action {
  code: string;
  kind: string;
  label: string;
  route?: string | number | null;
  city?: string | number | null;
  slot?: number | null;
  payment?: string | null;
  group?: string | null;
  offered?: Offered[];
  min?: number;
  max?: number;
}

/** A ticket choice's action also carries the offered tickets and how many may be kept (the server's words
 * say the rule; the page only ticks boxes and sends the ticked ids). */
export interface Offered {
  id: string | number;
  label: string;
  points?: number;
}

export interface Pending {
  kind: string;
  label: string;
  choices: Action[];
}

export interface Player {
  seat: number;
  name: string;
  color: string;
  trains: number;
  cards: number;
  tickets: number;
  score: number;
  is_turn: boolean;
  [extra: string]: unknown;
}

export interface Card {
  color: string | null;
  label: string;
  count?: number;
  index?: number;
}

export interface Ticket {
  id: string | number;
  label: string;
  points: number;
  done: boolean;
}

export interface Me {
  seat: number;
  hand: Card[];
  tickets: Ticket[];
  ticket_map?: string | null; // URL of the private ticket map (relative), fetched with the session
  counters?: { label: string; emoji?: string }[];
  [extra: string]: unknown;
}

export interface Move {
  line: string;
  seat?: number | null;
  routes?: (string | number)[];
  cities?: (string | number)[];
}

export interface View {
  game_id: string;
  version: number;
  board: { id: string; name: string };
  locale: string;
  svg: string;
  map_box?: number[] | null; // [x, y, w, h] of the map inside the drawing (without its side panel)
  players: Player[];
  face_up: Card[];
  deck: { cards: number; tickets: number };
  me: Me | null;
  actions: Action[];
  pending: Pending | null;
  log: Move[];
  texts: Record<string, string>;
  move?: Move | null;
  status?: string;
}

export interface ApiError {
  code: string;
  text: string;
}
