"""What a translator redoes in a stale section: each change word by word (CJK: by character)."""

from __future__ import annotations

from pnp.validate.word_diff import SHOWN_CHANGES, tokens, word_changes


def test_an_added_sentence_is_shown_in_its_place_with_a_few_words_around_it() -> None:
    old = "Deal again. The first player to reach 10 points wins."
    new = "Deal again. The dealer shuffles. The first player to reach 10 points wins."
    [change] = word_changes(old, new)
    # the matcher keeps "Deal again" and ". The first" whole; the sentence goes between them
    assert change == "…Deal again{+. The dealer shuffles+}. The first player …"


def test_a_replaced_word_shows_both() -> None:
    [change] = word_changes("pass the deal to the left", "pass the deal to the right")
    assert change == "… the deal to the [-left-]{+right+}…"  # four words of context


def test_japanese_is_compared_by_character() -> None:
    assert tokens("切札は緑です") == ["切", "札", "は", "緑", "で", "す"]
    [change] = word_changes("切札は緑です。", "切札は赤です。")
    assert change == "…切札は[-緑-]{+赤+}です。…"


def test_line_breaks_show_and_a_rewrite_is_summed_up() -> None:
    [change] = word_changes("one\ntwo", "one\n\ntwo")
    assert "⏎" in change and "\n" not in change
    old = " ".join(f"w{n}" for n in range(40))
    new = " ".join(f"w{n}" if n % 4 else f"x{n}" for n in range(40))
    changes = word_changes(old, new)
    assert len(changes) == SHOWN_CHANGES + 1 and changes[-1] == "… and 2 more change(s)"


def test_a_huge_section_is_matched_with_difflibs_heuristic_not_exactly(monkeypatch) -> None:  # noqa: ANN001
    """Exact matching of a recorded text of 43,000 repeated words against the real section took 40 s: its
    longest-match search is quadratic in a repeated word. Real sections (a few hundred words) stay exact."""
    import difflib


    used: list[bool] = []
    real = difflib.SequenceMatcher

    def spy(*args, autojunk=True, **kwargs):  # noqa: ANN002, ANN003, ANN202
        used.append(autojunk)
        return real(*args, autojunk=autojunk, **kwargs)

    monkeypatch.setattr(difflib, "SequenceMatcher", spy)
    assert word_changes("Shuffle the deck.", "Shuffle the deck twice.") == ["…Shuffle the deck{+ twice+}.…"]
    huge = word_changes("word " * 43_000, "Shuffle the deck.")
    assert used == [False, True]
    assert huge[:2] == ["…[-word-]{+Shuffle+} word word word word …", "…word [-word-]{+the+} word word word word …"]
    assert huge[2].endswith(" (214,990 characters in all)-]{+deck.+}…")  # 43,000 × "word " less the 2 matched
    assert max(map(len, huge)) < 300
