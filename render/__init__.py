"""Pictures of the game: board state -> SVG -> PNG (cairosvg), plus private hands, score charts and GIFs.

Layering: ``bot -> render -> engine -> maps``; this package never imports ``bot`` or ``discord``. The drawing
modules take public data (:class:`render.model.BoardView`) and import only ``maps``; :mod:`render.from_engine` is
the one adapter that reads the engine's public views. Every word drawn comes from the caller
(:class:`render.words.PictureWords`, English by default), so pictures speak the reader's language.

Public API
----------
- :func:`render.board_svg.render_board_svg` ``(board, view=None, *, width=1600, colorblind=True,
  highlight=None, words=ENGLISH) -> str``: the board picture as SVG text.
- :func:`render.png.render_board_png` ``(board, view=None, *, width=1600, colorblind=True, highlight=None,
  cache=True, words=ENGLISH) -> bytes`` and :func:`render.png.svg_to_png` ``(svg, *, width, quantize=True) -> bytes``.
- :class:`render.pool.RenderPool` ``(workers=None, *, warm=())`` with ``await pool.render_board(board_id, view,
  **opts) -> bytes`` and ``await pool.run("render.hand.render_hand_png", ...)``: pictures off the event loop;
  ``pool.start()`` starts the workers now, ``pool.warm(keys)`` has each draw boards ahead (``warm_key(board_id,
  width=, colorblind=, words=)``), ``await pool.warmed()`` waits for that; a worker that dies is replaced.
- :func:`render.hand.render_hand_png` ``(cards, tickets, *, width=800, colorblind=True, words=..., board_id="")``,
  :func:`render.summary.render_summary_png` ``(rows, *, width=1000, words=...)``,
  :func:`render.gif.render_game_gif` ``(board, views, *, width=800, frame_ms=600, ...)``.
- :func:`render.tickets_map.render_ticket_map_png` ``(board_or_id, view, mine, *, width=1600, colorblind=True,
  words=...)``: the private ticket map of one player (``mine``: a :class:`render.tickets_map.TicketMap`, made by
  :func:`render.from_engine.ticket_map_data` ``(state, seat)``); only ever sent to that player.
- :func:`render.turn_picture.render_turn_png` ``(board, view, *, colorblind=True, words=...)``: the turn
  message's picture (800x600, shown 400x300 by Discord): a window on the view's last moves, their cities' names
  9 px tall or more as shown; :func:`render.turn_picture.turn_plan` says what it shows;
  ``await pool.render_turn(board_id, view, **opts)`` draws it in the pool.
- :mod:`render.layout`: the board geometry (projection, city positions, train spaces, label places), cached per
  board; ``render/tools/extract_geo.py`` made the coastlines in ``maps/geo/`` (dev-only, run once).
"""

from .fonts import use_packaged_fonts

use_packaged_fonts()  # before any text is drawn in this process: the package's fonts, whatever the host has
