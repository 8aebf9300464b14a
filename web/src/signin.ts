// Sign-in, three ways (bot/web/PROTOCOL.md): inside Discord through the Embedded App SDK; in a browser with a
// personal link (?link=); otherwise (development, tests) DiscordSDKMock stands in for the Discord client.
// The SDK is most of the page's script: a chunk of its own (web/build.mjs), fetched only on the paths that use it,
// and from the sign-in's first moment there, beside the page's own requests.
import type { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
import { request, setSession } from "./api";
import { setTexts } from "./texts";
import type { View } from "./types";

export interface SignedIn {
  gameId: string;
  user: { id: string; name: string; locale?: string };
  view?: View; // the reader's first view, in the session's answer (drawn before the socket's first frame)
}

interface Config {
  client_id: string;
  locale_default?: string;
  texts?: Record<string, string>;
}

interface SessionReply {
  session: string;
  access_token?: string;
  user: { id: string; name: string; locale?: string };
  game_id?: string;
  view?: View;
}

/** What the page asks Discord for: who the reader is, and their rich presence (web/src/richpresence.ts). */
const SCOPES: ("identify" | "rpc.activities.write")[] = ["identify", "rpc.activities.write"];

function insideDiscord(q: URLSearchParams): boolean {
  // Discord opens an Activity with these query parameters; the SDK needs them.
  return q.has("frame_id") && q.has("instance_id");
}

/** Signs in the way the page was opened, and again when the session ends (a page left open for days). */
export class SignIn {
  private sdk: DiscordSDK | DiscordSDKMock | null = null;
  private clientId = "";
  /** The scopes Discord's AUTHENTICATE said the reader granted (rich presence needs rpc.activities.write). */
  scopes: string[] = [];
  /** The reader's latest Discord OAuth2 token (page memory only): Share uploads the final board with it, as
   * Discord's own examples upload a moment. */
  accessToken = "";
  /** Settled once Discord's client has the reader's token (AUTHENTICATE): the SDK's commands beyond the sign-in
   * (participants, rich presence) wait for it; the map itself does not (its session is the server's). */
  authenticated: Promise<void> = Promise.resolve();

  /** The SDK's chunk, asked for at once where the page is not opened from a personal link. */
  private readonly sdkModule: Promise<typeof import("./sdk")> | null;
  /** The SDK talks to Discord's client (not the mock, not a personal link). */
  private real = false;

  constructor(private q: URLSearchParams) {
    this.sdkModule = q.get("link") ? null : import("./sdk");
  }

  async first(): Promise<SignedIn> {
    const q = this.q;
    const link = q.get("link");
    if (link) return this.withLink(link);

    const configured = request<Config>("GET", `api/config${q.has("locale") ? `?locale=${q.get("locale")}` : ""}`);
    const worded = configured.then((config) => setTexts(config.texts));
    let reply: SessionReply;
    // Discord serves an Activity at https://<its client id>.discordsays.com: the SDK's handshake and Discord's
    // authorization start at once, beside the server's config (the words), rather than after it.
    const hosted = insideDiscord(q) ? /^(\d+)\.discordsays\.com$/.exec(location.hostname)?.[1] : undefined;
    if (hosted) {
      this.clientId = hosted;
      const { DiscordSDK } = await this.sdkModule!;
      const sdk = (this.sdk = new DiscordSDK(hosted));
      this.real = true;
      const signed = sdk.ready().then(() => this.withDiscord());
      const [words, session] = await Promise.allSettled([worded, signed]);
      if (words.status === "rejected") throw words.reason; // (the words first: a failure is said in them)
      if (session.status === "rejected") throw session.reason;
      reply = session.value;
    } else {
      const config = await configured;
      await worded;
      this.clientId = config.client_id;
      const { DiscordSDK, DiscordSDKMock } = await this.sdkModule!;
      if (insideDiscord(q)) {
        this.sdk = new DiscordSDK(config.client_id);
        this.real = true;
      } else {
        const channel = q.get("channel") ?? "mock_channel";
        const mock = new DiscordSDKMock(config.client_id, q.get("guild"), channel, null);
        const code = q.get("mock_code") ?? "mock_code";
        mock._updateCommandMocks({ authorize: () => Promise.resolve({ code }) });
        this.sdk = mock;
      }
      await this.sdk.ready();
      reply = await this.withDiscord();
    }
    const sdk = this.sdk!;
    let gameId = q.get("game") ?? reply.game_id ?? "";
    if (!gameId) {
      // (development and tests only: a server without a bot token believes the mock's channel)
      const channel = sdk.channelId ?? "";
      const ctx = await request<{ game_id: string }>("GET", `api/context?channel=${encodeURIComponent(channel)}`);
      gameId = ctx.game_id;
    }
    return { gameId, user: reply.user, view: reply.view };
  }

  /** A new session the same way (the link again, or Discord's authorize without a prompt). */
  /** The SDK talking to Discord's client: only inside Discord (not the mock, not a personal link). */
  get discord(): DiscordSDK | null {
    return this.real ? (this.sdk as DiscordSDK) : null;
  }

  async again(): Promise<void> {
    const link = this.q.get("link");
    if (link) await this.withLink(link);
    else {
      await this.withDiscord();
      await this.authenticated;
    }
  }

  private async withLink(link: string): Promise<SignedIn> {
    // The browser's language, for a link made before links carried their user's Discord language.
    const reply = await request<SessionReply>("POST", "api/session", { link, locale: navigator.language });
    setSession(reply.session);
    return { gameId: reply.game_id ?? this.q.get("game") ?? "", user: reply.user, view: reply.view };
  }

  private async withDiscord(): Promise<SessionReply> {
    const sdk = this.sdk!;
    const { code } = await sdk.commands.authorize({
      client_id: this.clientId,
      response_type: "code",
      state: "",
      prompt: "none",
      // (rpc.activities.write: the rich presence; Discord asks the reader once, renewals pass silently)
      scope: SCOPES,
    });
    // The instance, not the channel: the server asks Discord where it runs and who is in it (bot/web/PROTOCOL.md).
    const reply = await request<SessionReply>("POST", "api/session", { code, instance: sdk.instanceId });
    setSession(reply.session);
    if (reply.access_token) {
      this.accessToken = reply.access_token;
      this.authenticated = sdk.commands.authenticate({ access_token: reply.access_token }).then((auth) => {
        this.scopes = (auth?.scopes ?? []).map(String); // (-1: a scope this SDK does not know)
      });
      this.authenticated.catch(() => undefined); // (a failure: no presence; the map goes on)
    }
    return reply;
  }
}
