// A stand-in for Discord's client, for tests: it frames an Activity the way the client does (the query parameters
// the Embedded App SDK reads) and answers the SDK's postMessage protocol as the SDK's source defines it
// (@discord/embedded-app-sdk 2.x, output/Discord.mjs and output/schema/*): opcodes HANDSHAKE 0, FRAME 1, CLOSE 2;
// after the handshake a DISPATCH of READY; every command answered as a FRAME with the command's nonce (or an
// ERROR event with it); events only to what the Activity subscribed to. Everything the Activity sends is recorded
// in window.standIn.received for the tests to read.
"use strict";
(function () {
  const OP = { HANDSHAKE: 0, FRAME: 1, CLOSE: 2, HELLO: 3 };
  const q = new URLSearchParams(location.search);
  const cfg = {
    clientId: q.get("client_id"),
    activityOrigin: q.get("activity_origin"), // e.g. https://4242.discordsays.com
    activityPath: q.get("activity_path") || "/",
    platform: q.get("platform") || "desktop",
    instanceId: q.get("instance_id"),
    guildId: q.get("guild_id"),
    channelId: q.get("channel_id"),
    locationId: q.get("location_id"),
    launchId: q.get("launch_id"),
    customId: q.get("custom_id"),
    code: q.get("code"), // what AUTHORIZE answers: the OAuth2 code the tests' fake Discord knows
    accessToken: q.get("access_token"), // the only token AUTHENTICATE accepts (the one that code exchanges for)
    user: JSON.parse(q.get("user") || "null"),
    // the scopes the user grants at Discord's consent (a comma list; none given: every scope asked)
    grant: q.has("grant") ? q.get("grant").split(",").filter(Boolean) : null,
    locale: q.get("locale") || "en-US",
    rpcMs: Number(q.get("rpc_ms") || 0), // (benches) how long each answer takes, as a real client's
  };
  const state = {
    received: [], // every message from the Activity: {op, ...payload}
    sent: [], // every message to it
    subscriptions: new Set(),
    participants: cfg.user ? [participant(cfg.user)] : [],
    activity: null, // the last SET_ACTIVITY
    dialogs: [], // invite / share dialogs opened
    ready: false, // the first frame's handshake answered
    closed: null,
    popouts: 0,
    errors: [], // what the stand-in found wrong in a message (a wrong frame id, client id...)
  };

  function participant(u) {
    return {
      id: u.id,
      username: u.username,
      global_name: u.global_name ?? u.username,
      discriminator: "0",
      avatar: u.avatar ?? null, // a hash: https://cdn.discordapp.com/avatars/<id>/<hash>.png
      flags: 0,
      bot: false,
    };
  }

  // The Activity's frames: the first in this window, then one per pop-out window (a new instance id); every one
  // speaks to this window (the SDK posts to `window.parent.opener ?? window.parent`).
  const frames = [];

  function openFrame(doc, instanceId) {
    const iframe = doc.createElement("iframe");
    iframe.id = "activity";
    // Discord's client: the Activity may use these; nothing else (no top navigation, no popups without asking).
    iframe.setAttribute("allow", "autoplay; encrypted-media; fullscreen; clipboard-write");
    iframe.setAttribute("sandbox", "allow-scripts allow-same-origin allow-forms allow-popups allow-pointer-lock");
    const f = { iframe, frameId: crypto.randomUUID(), instanceId, ready: false, subscriptions: new Set() };
    const src = new URL(cfg.activityPath, cfg.activityOrigin);
    const params = {
      instance_id: instanceId,
      location_id: cfg.locationId,
      launch_id: cfg.launchId,
      referrer_id: null,
      custom_id: cfg.customId,
      guild_id: cfg.guildId,
      channel_id: cfg.channelId,
      frame_id: f.frameId,
      platform: cfg.platform,
    };
    if (cfg.platform === "mobile") params.mobile_app_version = "250.0";
    for (const [k, v] of Object.entries(params)) if (v != null) src.searchParams.set(k, v);
    iframe.src = src.toString();
    frames.push(f);
    doc.body.appendChild(iframe);
    return f;
  }

  let current = null; // the frame whose message is being answered
  function post(message, f = current) {
    state.sent.push(message);
    if (cfg.rpcMs > 0) setTimeout(() => f.iframe.contentWindow.postMessage(message, cfg.activityOrigin), cfg.rpcMs);
    else f.iframe.contentWindow.postMessage(message, cfg.activityOrigin);
  }
  function reply(cmd, nonce, data) {
    post([OP.FRAME, { cmd, data, evt: null, nonce }]);
  }
  function refuse(cmd, nonce, code, message) {
    post([OP.FRAME, { cmd, data: { code, message }, evt: "ERROR", nonce }]);
  }
  function dispatch(evt, data) {
    post([OP.FRAME, { cmd: "DISPATCH", data, evt, nonce: null }]);
  }
  /** An event to every frame of the Activity that subscribed to it (as Discord's RPC server sends them). */
  function event(evt, data) {
    let sent = false;
    for (const f of frames) {
      if (!f.ready || !f.subscriptions.has(evt)) continue;
      post([OP.FRAME, { cmd: "DISPATCH", data, evt, nonce: null }], f);
      sent = true;
    }
    return sent;
  }

  const RPC_ERROR = { INVALID_PAYLOAD: 4000, INVALID_COMMAND: 4002, INVALID_CLIENTID: 4007, INVALID_TOKEN: 4009 };
  const handlers = {
    AUTHORIZE(args) {
      if (args.client_id !== cfg.clientId) return [RPC_ERROR.INVALID_CLIENTID, "wrong client id"];
      if (args.response_type !== "code" || !Array.isArray(args.scope) || !args.scope.length)
        return [RPC_ERROR.INVALID_PAYLOAD, "authorize wants response_type code and scopes"];
      return { code: cfg.code };
    },
    AUTHENTICATE(args) {
      if (!args.access_token || args.access_token !== cfg.accessToken) return [RPC_ERROR.INVALID_TOKEN, "Invalid token"];
      state.authenticated = true;
      return {
        access_token: args.access_token,
        user: { username: cfg.user.username, discriminator: "0", id: cfg.user.id, avatar: null, public_flags: 0 },
        scopes: (state.scopes ?? ["identify"]).filter((s) => !cfg.grant || cfg.grant.includes(s)),
        expires: new Date(Date.now() + 7 * 86400e3).toISOString(),
        application: { description: "", icon: null, id: cfg.clientId, name: "Ticket to Ride" },
      };
    },
    SUBSCRIBE(args, msg) {
      current.subscriptions.add(msg.evt);
      return { evt: msg.evt };
    },
    UNSUBSCRIBE(args, msg) {
      current.subscriptions.delete(msg.evt);
      return { evt: msg.evt };
    },
    GET_ACTIVITY_INSTANCE_CONNECTED_PARTICIPANTS() {
      return { participants: state.participants };
    },
    SET_ACTIVITY(args) {
      state.activity = args.activity;
      return Object.assign({ name: "Ticket to Ride", type: 0 }, args.activity, { application_id: cfg.clientId });
    },
    OPEN_INVITE_DIALOG() {
      state.dialogs.push({ kind: "invite" });
      return null;
    },
    OPEN_SHARE_MOMENT_DIALOG(args) {
      state.dialogs.push({ kind: "share_moment", mediaUrl: args.mediaUrl });
      return null;
    },
    SHARE_LINK(args) {
      state.dialogs.push({ kind: "share_link", message: args.message });
      return { success: true, didCopyLink: false, didSendMessage: true };
    },
    CAPTURE_LOG() {
      return null;
    },
    SET_ORIENTATION_LOCK_STATE(args) {
      state.orientationLock = args;
      return null;
    },
    SET_CONFIG(args) {
      return { use_interactive_pip: !!args.use_interactive_pip };
    },
    USER_SETTINGS_GET_LOCALE() {
      return { locale: cfg.locale };
    },
    GET_PLATFORM_BEHAVIORS() {
      return {};
    },
    ENCOURAGE_HW_ACCELERATION() {
      return { enabled: true };
    },
  };

  window.addEventListener("message", (e) => {
    // Discord's client listens to its Activity's frames only, from the Activity's origin.
    const f = frames.find((x) => x.iframe.contentWindow === e.source);
    if (!f) return;
    current = f;
    if (e.origin !== cfg.activityOrigin) {
      state.errors.push(`message from ${e.origin}`);
      return;
    }
    if (!Array.isArray(e.data)) {
      state.errors.push("not an [opcode, payload] pair");
      return;
    }
    const [op, msg] = e.data;
    state.received.push(Object.assign({ op, at: performance.now(), frame: frames.indexOf(f) }, msg)); // at: ms since this page began
    if (op === OP.HANDSHAKE) {
      if (msg.v !== 1 || msg.client_id !== cfg.clientId || msg.frame_id !== f.frameId) {
        state.errors.push("bad handshake");
        post([OP.CLOSE, { code: 4000, message: "Invalid handshake" }]);
        return;
      }
      f.ready = true;
      if (f === frames[0]) state.ready = true;
      dispatch("READY", {
        v: 1,
        config: { cdn_host: "cdn.discordapp.com", api_endpoint: "//discord.com/api", environment: "production" },
        user: cfg.user ? { id: cfg.user.id, username: cfg.user.username, discriminator: "0" } : undefined,
      });
    } else if (op === OP.FRAME) {
      if (!f.ready) {
        state.errors.push(`${msg.cmd} before the handshake`);
        return;
      }
      if (msg.cmd === "AUTHORIZE") state.scopes = msg.args.scope;
      const handler = handlers[msg.cmd];
      if (!handler) return refuse(msg.cmd, msg.nonce, RPC_ERROR.INVALID_COMMAND, `Unknown command ${msg.cmd}`);
      const out = handler(msg.args ?? {}, msg);
      if (Array.isArray(out)) refuse(msg.cmd, msg.nonce, out[0], out[1]);
      else reply(msg.cmd, msg.nonce, out);
    } else if (op === OP.CLOSE) {
      state.closed = msg;
    }
  });

  // What a test may do as Discord would: people joining or leaving, the phone turned, the layout changed.
  window.standIn = {
    state,
    get frameId() {
      return frames[0].frameId;
    },
    /** The Activity popped out into a window of its own: loaded afresh there, with a new instance id. */
    popOut() {
      // the Activity leaves this window (its frame closed) and starts again in the new one
      for (const f of frames) if (f.iframe.isConnected && f.iframe.ownerDocument === document) f.iframe.remove();
      state.popouts += 1;
      const win = window.open(`/stand-in/popout.html?n=${state.popouts}`, `activity-${state.popouts}`, "popup");
      return !!win;
    },
    /** Called by a pop-out window once loaded: the Activity's frame in it. */
    adopt(doc) {
      openFrame(doc, `${cfg.instanceId}-popout-${state.popouts}`);
    },
    commands: () =>
      state.received
        .filter((m) => m.op === OP.FRAME)
        .map((m) => ({ cmd: m.cmd, args: m.args, evt: m.evt ?? null, frame: m.frame })),
    setParticipants(users) {
      state.participants = users.map(participant);
      return event("ACTIVITY_INSTANCE_PARTICIPANTS_UPDATE", { participants: state.participants });
    },
    orientation(o) {
      return event("ORIENTATION_UPDATE", { screen_orientation: o === "portrait" ? 0 : 1, orientation: o });
    },
    layoutMode(mode) {
      return event("ACTIVITY_LAYOUT_MODE_UPDATE", { layout_mode: mode });
    },
  };
  openFrame(document, cfg.instanceId);
})();
