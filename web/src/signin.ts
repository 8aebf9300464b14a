// Sign-in, three ways (bot/web/PROTOCOL.md): inside Discord through the Embedded App SDK; in a browser with a
// personal link (?link=); otherwise (development, tests) DiscordSDKMock stands in for the Discord client.
import { DiscordSDK, DiscordSDKMock } from "@discord/embedded-app-sdk";
import { request, setSession } from "./api";
import { setTexts } from "./texts";

export interface SignedIn {
  gameId: string;
  user: { id: string; name: string; locale?: string };
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
}

function insideDiscord(q: URLSearchParams): boolean {
  // Discord opens an Activity with these query parameters; the SDK needs them.
  return q.has("frame_id") && q.has("instance_id");
}

export async function signIn(q: URLSearchParams): Promise<SignedIn> {
  const link = q.get("link");
  if (link) {
    // The browser's language names the words of a link's session (a link carries no Discord locale).
    const reply = await request<SessionReply>("POST", "api/session", { link, locale: navigator.language });
    setSession(reply.session);
    return { gameId: reply.game_id ?? q.get("game") ?? "", user: reply.user };
  }

  const config = await request<Config>("GET", `api/config${q.has("locale") ? `?locale=${q.get("locale")}` : ""}`);
  setTexts(config.texts);
  let sdk: DiscordSDK | DiscordSDKMock;
  if (insideDiscord(q)) {
    sdk = new DiscordSDK(config.client_id);
  } else {
    const channel = q.get("channel") ?? "mock_channel";
    const mock = new DiscordSDKMock(config.client_id, q.get("guild"), channel, null);
    const code = q.get("mock_code") ?? "mock_code";
    mock._updateCommandMocks({ authorize: () => Promise.resolve({ code }) });
    sdk = mock;
  }
  await sdk.ready();
  const { code } = await sdk.commands.authorize({
    client_id: config.client_id,
    response_type: "code",
    state: "",
    prompt: "none",
    scope: ["identify"],
  });
  const reply = await request<SessionReply>("POST", "api/session", { code });
  setSession(reply.session);
  if (reply.access_token) await sdk.commands.authenticate({ access_token: reply.access_token });

  let gameId = q.get("game") ?? reply.game_id ?? "";
  if (!gameId) {
    const channel = sdk.channelId ?? "";
    const ctx = await request<{ game_id: string }>("GET", `api/context?channel=${encodeURIComponent(channel)}`);
    gameId = ctx.game_id;
  }
  return { gameId, user: reply.user };
}
