// A pop-out window of the Discord client stand-in: the client window (its opener) frames the Activity here and
// keeps answering it, as Discord's client does (the RPC server stays in the main window).
"use strict";
window.opener.standIn.adopt(document);
