"""The live map: a web server (aiohttp) for the Discord Activity and the personal browser link (issue 21).

No discord import here: the page signs in through Discord's OAuth2 (`discord_oauth`), holds a session token of
ours (`tokens`), reads its view of a game (`view`: built from the same presenters, codes and engine views as the
chat) and acts by sending back one of the action codes it was given; every change of a game from anywhere is
pushed to the open pages (`live`). The wire contract with the page is `PROTOCOL.md`; `app` has the routes,
`guard` the limits and headers, `server` starts it (inside `ttr bot`, or alone with `ttr web`).
"""
