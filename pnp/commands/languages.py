"""What to say about a ``--lang`` no game ships in: the shipped languages, and the code likely meant."""

from __future__ import annotations

from collections.abc import Iterable

from pnp.model.fields import closest

#: country codes typed for language codes (Japan's jp for Japanese, ja): the likeliest --lang typos
COUNTRY_NOT_LANGUAGE = {"jp": "ja", "cn": "zh", "tw": "zh", "kr": "ko", "gr": "el", "dk": "da", "se": "sv",
                        "cz": "cs", "ua": "uk", "us": "en", "gb": "en", "br": "pt", "at": "de", "ch": "de"}
#: those that are no language's code at all (tw is Twi, kr Kanuri, se Sami, br Breton, ch Chamorro)
NO_LANGUAGE_CODE = frozenset({"jp", "cn", "gr", "dk", "cz", "ua", "us", "gb", "at"})


def language_fix(lang: str, shipped: Iterable[str]) -> str:
    """"did you mean ja? languages shipped: en, ja"."""
    shipped = sorted(set(shipped))
    meant = COUNTRY_NOT_LANGUAGE.get(lang.lower())
    hint = meant if meant in shipped else closest(lang, shipped)
    return f"{f'did you mean {hint}? ' if hint else ''}languages shipped: {', '.join(shipped)}"
