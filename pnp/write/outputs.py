"""The writer for each kind of output file, registered with the runner.

Fonts are prepared per unit from exactly the texts that unit prints, so a
component's sheets do not change when another component's card list does.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from pnp.compose.blocks import RuleText
from pnp.compose.deck import BoundComponent
from pnp.diagnostics import DataError, Report
from pnp.render.cards.card_pdf import label_texts, low_ink_changes_nothing, write_component_pdf
from pnp.render.cards.deck import chosen_cards
from pnp.render.cards.faces import TextIssue
from pnp.render.sheets.geometry import ImpositionError
from pnp.render.sheets.paper import parse_paper
from pnp.render.text.fonts import FontSet, prepare_fonts
from pnp.validate.card_layouts import bind_game
from pnp.write.jobs import Job
from pnp.write.runner import ReportedAlready, UnitState, writer


def _bound(state: UnitState, ink_saver: bool = False) -> BoundComponent:
    """The component bound to its layouts; layouts may test `ink_saver`, so each variant binds its own."""
    def bind() -> BoundComponent:
        report = Report()
        bound = bind_game(state.game, state.rules, state.unit.lang, report, ink_saver=ink_saver,
                          components=(state.unit.component,))
        state.report.extend(report)
        if report.errors:
            raise ReportedAlready  # the layouts' errors, each at its line: a summary would be one more error
        if state.unit.component not in bound:
            raise DataError(f"{state.game.id}: the layouts of {state.unit.component!r} have errors (see above)")
        return bound[state.unit.component]
    return state.memo(f"bound-{ink_saver}", bind)  # type: ignore[return-value]


def _fonts(state: UnitState, texts: list[str]) -> FontSet:
    return state.memo("fonts", lambda: prepare_fonts(texts, state.unit.cache_dir,  # type: ignore[return-value]
                                                     overrides=state.game.fonts))


def _card_fonts(state: UnitState) -> FontSet:
    """Fonts for every text this unit prints; the low-ink variant may print others, so it counts too."""
    texts = [*label_texts(state.game, state.unit.lang), *_bound(state).texts()]
    if any(job.kind == "lowink" for job in state.unit.jobs):
        texts.extend(_bound(state, True).texts())
    return _fonts(state, texts)


def _warn(state: UnitState, job: Job, messages: Iterable[str]) -> None:
    """A renderer's warnings, in the build report under the file they concern (and in its stamp)."""
    for message in messages:
        state.report.warning(f"{_shown(job)}: {message}", state.game.path)


def _shown(job: Job) -> str:
    """An output named with its language and paper folders: a build for eight papers said
    "cards-deck.pdf" eight times, for eight different sheets."""
    return "/".join(job.path.parts[-3:])


@writer("cards", "fold", "lowink", "singles")
def write_cards(state: UnitState, job: Job) -> tuple[list[Path], list[TextIssue]]:
    if job.kind == "lowink" and low_ink_changes_nothing(_bound(state), _bound(state, ink_saver=True)):
        return _no_low_ink(state, job)
    bound, fontset = _bound(state, ink_saver=job.kind == "lowink"), _card_fonts(state)
    variant = "duplex" if job.kind == "cards" else job.kind
    paper = parse_paper(job.paper) if job.paper else None  # singles have none: each page is a card
    job.path.parent.mkdir(parents=True, exist_ok=True)
    try:
        result = write_component_pdf(state.game, bound, fontset, paper, job.lang, variant, state.unit.options.print,
                                     job.path)
    except ImpositionError as exc:  # a paper too small for the card (--paper 50x50): the user's to change
        raise DataError(f"{_shown(job)}: {exc}", state.game.path, None,
                        "choose a bigger --paper, or a smaller --bleed") from None
    _warn(state, job, result.warnings)  # e.g. a margin too narrow for the ruler or the cutting cues
    return [job.path], list(result.issues)


def _no_low_ink(state: UnitState, job: Job) -> tuple[list[Path], list[TextIssue]]:
    """No low-ink copy of sheets it would not change; an old one, from when it did, is removed."""
    job.path.unlink(missing_ok=True)
    duplex = job.path.with_name(job.path.name.replace("-lowink.pdf", ".pdf"))
    state.report.note(f"{_shown(job)}: not written, the ink saver changes nothing on these cards (pictures, "
                      f"no filled backgrounds or patterns); {duplex.name} is the same sheets", state.game.path)
    return [], []


@writer("png")
def write_pngs(state: UnitState, job: Job) -> tuple[list[Path], list[TextIssue]]:
    from pnp.render.cards.card_png import write_card_pngs

    bound = _bound(state)  # a reprint (--only) renders the chosen cards, into a folder of their own (jobs.py)
    bound = replace(bound, cards=chosen_cards(bound, state.unit.options.print.only))
    result = write_card_pngs(state.game, bound, _card_fonts(state), state.unit.options.print.bleed_mm, job.path)
    return list(result.written), list(result.issues)


@writer("calibration")
def write_calibration(state: UnitState, job: Job) -> tuple[list[Path], list[TextIssue]]:
    from pnp.render.sheets.calibration import write_calibration_sheet
    from pnp.render.sheets.calibration_words import all_calibration_strings, calibration_texts

    fontset = prepare_fonts(all_calibration_strings(job.lang), state.unit.cache_dir)
    job.path.parent.mkdir(parents=True, exist_ok=True)
    write_calibration_sheet(job.path, parse_paper(job.paper), fontset.regular,
                            state.unit.options.print.duplex_edge, calibration_texts(job.lang))
    return [job.path], []


def _rule_text(state: UnitState, lang: str) -> RuleText:
    """The rule text rendered and parsed once for the unit's rulebook and booklet (compose, not render)."""
    from pnp.compose.ruletext import require_rule_text

    return state.memo(f"rule-text-{lang}", lambda: require_rule_text(state.game, state.rules, lang))  # type: ignore[return-value]


@writer("rules", "booklet", "aid", "aid-cards")
def write_document(state: UnitState, job: Job) -> tuple[list[Path], list[TextIssue]]:
    from pnp.render.rulebook.aid import write_aid
    from pnp.render.rulebook.aid_cards import write_aid_cards
    from pnp.render.rulebook.book import write_rulebook
    from pnp.render.rulebook.booklet import write_booklet

    job.path.parent.mkdir(parents=True, exist_ok=True)
    if job.kind in ("rules", "booklet"):
        write_book = write_rulebook if job.kind == "rules" else write_booklet
        result = write_book(state.game, state.rules, job.lang, _rule_text(state, job.lang), job.paper, job.path,
                            state.unit.cache_dir)
        _warn(state, job, result.warnings)  # e.g. card faces that fell back to chips
    elif job.kind == "aid":
        write_aid(state.game, state.rules, job.lang, job.paper, job.path, state.unit.cache_dir)
    else:
        write_aid_cards(state.game, state.rules, job.lang, job.paper, job.path, state.unit.cache_dir,
                        bleed_mm=state.unit.options.print.bleed_mm)
    return [job.path], []
