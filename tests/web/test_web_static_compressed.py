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


def test_the_discord_sdk_is_a_file_of_its_own_that_the_pages_script_imports_only_when_needed() -> None:
    """The Discord SDK (about 155 KB) is built apart (web/build.mjs): a personal link's page neither fetches nor
    runs it; the page's script imports it on the Activity's path (web/src/signin.ts)."""
    html = (STATIC / "index.html").read_text(encoding="utf-8")
    assert (
        "sdk-" not in html
    )  # (a preload of it was measured slower at 4x CPU: it competes with the page's script)
    sdk = next((STATIC / "assets").glob("sdk-*.js"))
    assert sdk.with_name(sdk.name + ".br").is_file() and sdk.with_name(sdk.name + ".gz").is_file()
    script = next((STATIC / "assets").glob("app-*.js")).read_text(encoding="utf-8")
    assert f'import("./{sdk.name}")' in script
    assert len(script) < 60_000 < sdk.stat().st_size
