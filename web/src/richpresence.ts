// Rich presence inside Discord (the SDK's setActivity, which needs the rpc.activities.write scope): what the
// reader's profile says they are doing, from public facts the view already has (the board's name, whose turn,
// the seats taken and free), in the reader's words. Sent when those change (not on every frame), at most one
// command per GAP_MS (Discord limits how often an activity may be set; the last wanted one goes out after the
// gap), and cleared when the game ends. Without the scope nothing is sent.
import type { DiscordSDK } from "@discord/embedded-app-sdk";
import { t } from "./texts";
import type { View } from "./types";

/** The least time between two SET_ACTIVITY commands (Discord's RPC allows about five per 20 s). */
export const GAP_MS = 4000;
export const SCOPE = "rpc.activities.write";

export interface Activity {
  type: number;
  details: string;
  state: string;
  party: { id: string; size: [number, number] };
  timestamps: { start: number };
}

/** The activity a view shows (null: none, the game is over); `start` is when the reader opened the map, `party`
 * the Activity's instance (as Discord's own example: who is in it can join it). */
export function activityOf(v: View, start: number, party: string): Activity | null {
  if (v.status !== "lobby" && v.status !== "active") return null;
  const seated = v.players.length;
  let state: string;
  let size: [number, number];
  if (v.status === "lobby") {
    size = [seated, seated + v.open_seats];
    state = t("web.ui.presence_lobby", { seated, seats: size[1] });
  } else {
    size = [seated, seated];
    // one player to move: theirs; every player at once (the opening's tickets): the opening
    const turn = v.players.filter((p) => p.is_turn);
    state = turn.length === 1 ? t("web.ui.presence_turn", { player: turn[0].name }) : t("web.ui.presence_setup");
  }
  return { type: 0, details: v.board.name, state, party: { id: party, size }, timestamps: { start } };
}

export class RichPresence {
  private wanted = ""; // the last activity asked for (JSON; "" none yet)
  private next: Activity | null = null;
  private sent = ""; // the last one sent
  private lastAt = -Infinity;
  private timer = 0;
  private readonly start = Date.now();

  constructor(
    private sdk: DiscordSDK,
    private granted: () => boolean,
  ) {}

  shown(v: View): void {
    if (!this.granted()) return;
    const next = activityOf(v, this.start, this.sdk.instanceId);
    const key = JSON.stringify(next);
    if (key === this.wanted) return;
    this.wanted = key;
    this.next = next;
    if (this.timer) return; // (sent when the gap is over: the newest wanted)
    this.timer = window.setTimeout(() => this.send(), Math.max(0, this.lastAt + GAP_MS - performance.now()));
  }

  private send(): void {
    this.timer = 0;
    if (this.wanted === this.sent) return;
    const first = this.sent === "";
    this.sent = this.wanted;
    if (this.next === null && first) return; // (nothing to clear)
    this.lastAt = performance.now();
    this.sdk.commands.setActivity({ activity: this.next }).catch(() => undefined);
  }
}
