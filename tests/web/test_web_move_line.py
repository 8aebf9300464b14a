"""A move's sentences on the live map are joined the reader's way: a space in English, none in Japanese."""

from __future__ import annotations

from bot.web.view import one_line


def test_a_moves_sentences_are_spaced_as_the_readers_language_spaces_them() -> None:
    assert (
        one_line(["Ann claimed Roma–Napoli.", "Bob's turn."], "en") == "Ann claimed Roma–Napoli. Bob's turn."
    )
    assert (
        one_line(["東京–大阪を獲得しました。", "ボブの番です。"], "ja")
        == "東京–大阪を獲得しました。ボブの番です。"
    )
    assert one_line(["Seul."], "fr") == "Seul."
    assert one_line([], "fr") == ""
