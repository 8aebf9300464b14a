// The final scores' Share, inside Discord: the SDK's share-moment dialog with the final board. Discord shares
// only pictures on its CDN, so the server uploads the game's final board once and gives its URL
// (POST api/games/<id>/moment, bot/web/moments.py); the button is shown once that URL is here, so a tap opens
// the dialog at once. A server that cannot (no bot token, no render pool) answers 404: no button.
import type { DiscordSDK } from "@discord/embedded-app-sdk";
import { ApiFailure, request } from "./api";
import { t } from "./texts";
import type { View } from "./types";
import { $, el } from "./ui";

export class Share {
  private asked = ""; // the game whose moment was asked for
  private mediaUrl = "";

  constructor(
    private sdk: DiscordSDK,
    private accessToken: () => string, // the reader's Discord token: the upload is theirs (bot/web/moments.py)
  ) {}

  /** After the ranking is drawn: the button under it, once the game is finished and its picture uploaded. */
  shown(v: View): void {
    if (v.status !== "finished") return;
    if (this.asked !== v.game_id) {
      this.asked = v.game_id;
      this.mediaUrl = "";
      this.ask(v.game_id, 0);
    }
    this.place();
  }

  /** The picture's URL; a refusal that passes (too many requests, Discord or the server busy) is asked again
   * a little later, a few times; any other means no Share (the scores are there all the same). */
  private ask(gameId: string, tries: number): void {
    const token = this.accessToken();
    const body = token ? { access_token: token } : undefined;
    request<{ media_url: string }>("POST", `api/games/${encodeURIComponent(gameId)}/moment`, body).then(
      (r) => {
        if (this.asked !== gameId) return;
        this.mediaUrl = r.media_url;
        this.place();
      },
      (e) => {
        const passing = e instanceof ApiFailure && (e.status === 429 || e.status >= 500);
        if (passing && tries < 4 && this.asked === gameId) window.setTimeout(() => this.ask(gameId, tries + 1), 2000 * (tries + 1));
      },
    );
  }

  private place(): void {
    const box = $("ranking");
    if (!this.mediaUrl || box.hidden || box.querySelector("#share")) return;
    const mediaUrl = this.mediaUrl;
    const button = el("button", { type: "button", id: "share" }, t("web.ui.share"));
    button.addEventListener("click", () => void this.sdk.commands.openShareMomentDialog({ mediaUrl }).catch(() => undefined));
    box.append(button);
  }
}
