// A bare Activity for testing the Discord client stand-in itself: the unmodified Embedded App SDK, each of its
// calls the stand-in answers reachable from a test (window.probe), every event received kept in probe.seen.
// Bundled by esbuild from web/node_modules in tests/web_browser/test_discord_client_stand_in.py.
import { DiscordSDK } from "@discord/embedded-app-sdk";

const sdk = new DiscordSDK(new URLSearchParams(location.search).get("probe_client_id") ?? "4242", {
  disableConsoleLogOverride: true,
});
const seen = [];
const listeners = new Map();
const code = (e) => (e && typeof e.code === "number" ? e.code : String(e));

window.probe = {
  seen,
  ready: sdk.ready().then(() => ({ instanceId: sdk.instanceId, channelId: sdk.channelId, platform: sdk.platform })),
  authorize: (scope) =>
    sdk.commands.authorize({ client_id: "4242", response_type: "code", state: "", prompt: "none", scope }),
  authenticate: (token) => sdk.commands.authenticate({ access_token: token }).then((r) => r, code),
  participants: () => sdk.commands.getInstanceConnectedParticipants(),
  subscribe(evt) {
    const listener = (data) => seen.push({ evt, data });
    listeners.set(evt, listener);
    return sdk.subscribe(evt, listener).then(() => true);
  },
  unsubscribe: (evt) => sdk.unsubscribe(evt, listeners.get(evt)).then(() => true),
  setActivity: (activity) => sdk.commands.setActivity({ activity }),
  invite: () => sdk.commands.openInviteDialog().then(() => "opened", code),
  share: (mediaUrl) => sdk.commands.openShareMomentDialog({ mediaUrl }).then(() => "opened", code),
  lockOrientation: () =>
    sdk.commands.setOrientationLockState({ lock_state: 2 }).then(() => "locked", code),
  unknown: () => sdk.commands.getChannel({ channel_id: "10" }).then(() => "answered", code),
};
