"""The page's build is served compressed to a browser that accepts it (web/build.mjs writes each asset's .br and
.gz beside it; aiohttp's static files answer with them): about a third of the bytes through Discord's proxy, the
same content once decoded."""

from __future__ import annotations

import gzip

from helpers.web_site import site

from bot.web.app import STATIC


async def test_the_script_is_served_as_brotli_or_gzip_and_decodes_to_the_same_bytes(db_url: str) -> None:
    script = next((STATIC / "assets").glob("app-*.js"))
    async with site(db_url) as s:
        path = f"/assets/{script.name}"
        br = await s.client.get(path, headers={"Accept-Encoding": "br"}, auto_decompress=False)
        assert br.status == 200 and br.headers["Content-Encoding"] == "br"
        assert await br.read() == script.with_name(script.name + ".br").read_bytes()
        assert (
            br.headers["Content-Type"].startswith("text/javascript")
            or "javascript" in br.headers["Content-Type"]
        )
        gz = await s.client.get(path, headers={"Accept-Encoding": "gzip"}, auto_decompress=False)
        assert gz.headers["Content-Encoding"] == "gzip"
        body = await gz.read()
        assert gzip.decompress(body) == script.read_bytes()
        assert len(body) < script.stat().st_size / 2
        plain = await s.client.get(path, headers={"Accept-Encoding": "identity"})
        assert "Content-Encoding" not in plain.headers and await plain.read() == script.read_bytes()
