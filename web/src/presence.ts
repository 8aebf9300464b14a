// Who is on the map now, inside Discord: the Activity instance's participants (the SDK's
// getInstanceConnectedParticipants, then its ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE events), each marked playing
// or watching by the view's seats (the server says which Discord user sits where: no rule here), and in a lobby
// its free seats with an Invite button (the SDK's invite dialog).
import type { DiscordSDK } from "@discord/embedded-app-sdk";
import { t } from "./texts";
import type { View } from "./types";
import { $, el } from "./ui";

interface Participant {
  id: string;
  username: string;
  global_name?: string | null;
  nickname?: string;
  avatar?: string | null;
}

const PARTICIPANTS_UPDATE = "ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE";

export class Presence {
  private participants: Participant[] = [];
  private view: View | null = null;

  constructor(private sdk: DiscordSDK) {}

  /** Reads who is there and follows the changes; a failure leaves the strip empty (the game goes on). */
  async start(): Promise<void> {
    await this.sdk.subscribe(PARTICIPANTS_UPDATE, (e: { participants: Participant[] }) => this.update(e.participants));
    const { participants } = await this.sdk.commands.getInstanceConnectedParticipants();
    this.update(participants as Participant[]);
  }

  shown(v: View): void {
    this.view = v;
    this.render();
  }

  private update(participants: Participant[]): void {
    this.participants = participants ?? [];
    this.render();
  }

  private render(): void {
    const box = $("presence");
    const v = this.view;
    if (!v) return;
    const seated = new Set(v.players.map((p) => p.user).filter((u): u is string => !!u));
    const chips = this.participants.map((p) => {
      const name = p.nickname || p.global_name || p.username;
      const playing = seated.has(p.id);
      const label = t(playing ? "web.ui.here_playing" : "web.ui.here_watching", { name });
      const letters = el("span", { class: "initials" }, initials(name));
      let face: HTMLElement = letters;
      if (p.avatar) {
        // Discord's CDN; should the Activity's CSP refuse it, the initials instead of a broken picture
        const img = el("img", { src: `https://cdn.discordapp.com/avatars/${p.id}/${p.avatar}.png?size=64`, alt: "" });
        img.addEventListener("error", () => img.replaceWith(letters));
        face = img;
      }
      return el(
        "span",
        {
          class: `here ${playing ? "playing" : "watching"}`,
          role: "listitem",
          title: label,
          "aria-label": label,
          "data-user": p.id,
        },
        face,
      );
    });
    const extra: HTMLElement[] = [];
    if (v.status === "lobby" && v.open_seats > 0) {
      for (let i = 0; i < v.open_seats; i++) extra.push(el("span", { class: "here free", "aria-hidden": "true" }, "+"));
      const invite = el("button", { type: "button", id: "invite" }, t("web.ui.invite"));
      invite.addEventListener("click", () => void this.sdk.commands.openInviteDialog().catch(() => undefined));
      extra.push(invite);
    }
    box.replaceChildren(...chips, ...extra);
    box.setAttribute("aria-label", t("web.ui.on_map"));
    box.hidden = !chips.length && !extra.length;
    box.dataset.count = String(chips.length);
  }
}

function initials(name: string): string {
  const words = name.trim().split(/\s+/).filter(Boolean);
  const letters = words.length > 1 ? [words[0], words[words.length - 1]] : words;
  return letters.map((w) => [...w][0]?.toUpperCase() ?? "").join("") || "?";
}
