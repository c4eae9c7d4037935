"""pnp against plain scripts: image decks and vector decks, time and peak memory per case.

    python benchmarks/run.py            # image decks of 90 and 900 cards, vector decks of 900 and 5,000
    python benchmarks/run.py --quick    # 90 image cards and 900 vector cards, no drawImage baseline
    python benchmarks/run.py --full     # also reportlab drawImage at 900 cards (about 3 more minutes)

Every case runs in its own child process, so its peak memory is that process's peak resident set
(``os.wait4`` gives each child's rusage), and its time includes starting Python, as a user would
run it; a case under 3 s runs five times and the median counts. pnp builds with ``--jobs 1
--force``: one process, no up-to-date skipping; its caches are warmed first, as after any earlier
build, and a "first build" row shows the image decks with pnp's file digests forgotten. The card
art is generated once and kept in the work folder (``--work``, default: <temp>/pnp-benchmark).
See benchmarks/README.md.
"""

from __future__ import annotations

import argparse
import os
import platform
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

import fixtures  # noqa: E402 - the benchmark's own folder, put on the path above

PNP = [sys.executable, "-c", "from pnp.cli import main; main()"]
QUICK_CASE_S = 3.0  # a case faster than this runs QUICK_RUNS times and its median counts: short times are noisy
QUICK_RUNS = 5


@dataclass
class Case:
    deck: str  # "image" | "vector"
    tool: str
    cards: int
    command: list[str]
    output: Path
    prepare: Callable[[], None] | None = None
    before_each: Callable[[], None] | None = None  # runs before every timed run


@dataclass
class Result:
    case: Case
    seconds: float
    peak_mb: float
    size: int

    @property
    def cards_per_second(self) -> float:
        return self.case.cards / self.seconds


def run_child(command: list[str], log: Path) -> tuple[float, float, int]:
    """(seconds, peak RSS in MB, exit status) of one child process."""
    with open(log, "wb") as handle:
        start = time.perf_counter()
        child = subprocess.Popen(command, stdout=handle, stderr=subprocess.STDOUT, env=child_environment())
        _, status, usage = os.wait4(child.pid, 0)
        seconds = time.perf_counter() - start
    child.returncode = os.waitstatus_to_exitcode(status)
    return seconds, usage.ru_maxrss / 1024, child.returncode


def child_environment() -> dict[str, str]:
    """This environment, but writing bytecode: an installed pnp runs from the .pyc files pip compiled,
    and a setting that recompiles every module on every run would time the compiler, not pnp."""
    return {key: value for key, value in os.environ.items() if key != "PYTHONDONTWRITEBYTECODE"}


def forget_digests(cache: Path) -> Callable[[], None]:
    """A first build: pnp has hashed none of the files and read none of the images before."""
    def forget() -> None:
        import shutil

        from pnp.load.digests import INDEX_FOLDER
        from pnp.render.cards.images import FACTS_FOLDER

        for name in (INDEX_FOLDER, FACTS_FOLDER):
            shutil.rmtree(cache / name, ignore_errors=True)
    return forget


def art_not_cached(art: Path, count: int) -> Callable[[], None]:
    """Art read from the disk, not from memory: the kernel is asked to drop the files' cached pages.

    What a designer waits for after exporting new art or copying a deck in, and what the issue's own
    floor measured (2.3 s for 715 MB). The games' pictures are hard links to these files, so one
    eviction serves pnp and the floor alike. posix_fadvise needs no privileges; where the system
    lacks it (macOS) these rows are left out.
    """
    def evict() -> None:
        for path in sorted(art.glob("*.png"))[:count]:
            descriptor = os.open(path, os.O_RDONLY)
            try:
                os.posix_fadvise(descriptor, 0, 0, os.POSIX_FADV_DONTNEED)
            finally:
                os.close(descriptor)
    return evict


def measure(case: Case, work: Path) -> Result:
    if case.prepare:
        case.prepare()
    runs: list[tuple[float, float]] = []
    while not runs or (len(runs) < QUICK_RUNS and runs[0][0] < QUICK_CASE_S):
        case.output.unlink(missing_ok=True)
        log = work / "last-run.log"
        os.sync()  # the last case's writes are flushed now, not while this one runs
        if case.before_each:
            case.before_each()
        seconds, peak, status = run_child(case.command, log)
        if status != 0 or not case.output.exists():
            sys.exit(f"{case.tool} ({case.cards} cards) failed:\n{log.read_text(errors='replace')[-3000:]}")
        runs.append((seconds, peak))
    seconds, peak = sorted(runs)[len(runs) // 2]
    return Result(case, seconds, peak, case.output.stat().st_size)


def pnp_build(data: Path, game: str, out: Path) -> list[str]:
    return [*PNP, "build", "--data", str(data), game, "--lang", "en", "--paper", "a4", "--what", "cards",
            "--out", str(out), "--jobs", "1", "--force"]


def plan_cases(work: Path, image_sizes: list[int], vector_sizes: list[int], drawimage_sizes: list[int]) -> list[Case]:
    data, out, pdfs = work / "data", work / "out", work / "pdf"
    pdfs.mkdir(parents=True, exist_ok=True)
    art = work / "art"
    vector_pdf = out / "bench-vector" / "en" / "a4" / "cards-deck.pdf"
    cases = []
    for cards in image_sizes:
        deck_pdf = out / f"bench-art-{cards}" / "en" / "a4" / "cards-deck.pdf"
        cases.append(Case("image", "pnp", cards, pnp_build(data, f"bench-art-{cards}", out), deck_pdf))
        cases.append(Case("image", "pnp, first build", cards, pnp_build(data, f"bench-art-{cards}", out), deck_pdf,
                          before_each=forget_digests(Path(os.environ["PNP_CACHE_DIR"]))))
        floor = [sys.executable, str(HERE / "floor.py"), str(art), str(cards), str(pdfs / "floor.pdf")]
        cases.append(Case("image", "floor script", cards, floor, pdfs / "floor.pdf"))
        if hasattr(os, "posix_fadvise"):
            cases.append(Case("image", "pnp, art not cached", cards, pnp_build(data, f"bench-art-{cards}", out),
                              deck_pdf, before_each=art_not_cached(art, cards)))
            cases.append(Case("image", "floor script, art not cached", cards, floor, pdfs / "floor.pdf",
                              before_each=art_not_cached(art, cards)))
        if cards in drawimage_sizes:
            cases.append(Case("image", "reportlab drawImage", cards,
                              [sys.executable, str(HERE / "reportlab_images.py"), str(art), str(cards),
                               str(pdfs / "drawimage.pdf")], pdfs / "drawimage.pdf"))
    for cards in vector_sizes:
        cases.append(Case("vector", "pnp", cards, pnp_build(data, "bench-vector", out), vector_pdf,
                          lambda cards=cards: fixtures.vector_game(data, cards)))
        cases.append(Case("vector", "bare reportlab", cards,
                          [sys.executable, str(HERE / "reportlab_vector.py"),
                           str(data / "bench-vector" / "cards" / "deck.csv"),
                           str(Path(os.environ["PNP_CACHE_DIR"]) / "fonts"), str(pdfs / "bare.pdf")],
                          pdfs / "bare.pdf"))
    return cases


def warm_up(work: Path, image_sizes: list[int], vector_sizes: list[int]) -> None:
    """Make the art and build each game once, so pnp's font cache exists as after any earlier build."""
    data, out = work / "data", work / "out"
    fixtures.ensure_art(work / "art", max(image_sizes, default=0))
    for cards in image_sizes:
        fixtures.image_game(data, work / "art", cards)
    if image_sizes:
        run_child(pnp_build(data, f"bench-art-{min(image_sizes)}", out), work / "warm-up.log")
    fixtures.vector_game(data, min(vector_sizes or [9]))
    run_child(pnp_build(data, "bench-vector", out), work / "warm-up.log")


def machine() -> str:
    cpu = platform.processor() or platform.machine()
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                cpu = line.split(":", 1)[1].strip()
                break
    except OSError:
        pass
    import reportlab

    return (f"{cpu}, {os.cpu_count()} cores, {platform.system()} {platform.release()}, Python "
            f"{platform.python_version()}, reportlab {reportlab.Version}")


def table(results: list[Result]) -> str:
    lines = ["| deck | tool | cards | seconds | cards/s | peak MB | bytes/card |",
             "| --- | --- | ---: | ---: | ---: | ---: | ---: |"]
    for r in results:
        lines.append(f"| {r.case.deck} | {r.case.tool} | {r.case.cards:,} | {r.seconds:.3f} | "
                     f"{r.cards_per_second:,.0f} | {r.peak_mb:.0f} | {r.size // r.case.cards:,} |")
    return "\n".join(lines)


def verdicts(results: list[Result]) -> list[str]:
    def find(deck: str, tool: str, cards: int) -> Result | None:
        return next((r for r in results if (r.case.deck, r.case.tool, r.case.cards) == (deck, tool, cards)), None)

    lines = []
    for first in (r for r in results if r.case.tool == "pnp, first build"):
        if floor := find("image", "floor script", first.case.cards):
            lines.append(f"image {first.case.cards:,}, first build (no digests or image facts remembered): "
                         f"{first.seconds / floor.seconds:.2f}x the floor's time")
    for cold in (r for r in results if r.case.tool == "pnp, art not cached"):
        if floor := find("image", "floor script, art not cached", cold.case.cards):
            ratio = cold.seconds / floor.seconds
            lines.append(f"image {cold.case.cards:,}, art not cached (read from disk by both): {ratio:.2f}x "
                         f"the floor's time (target within 2x): {'met' if ratio <= 2 else 'NOT met'}")
    for ours in (r for r in results if r.case.tool == "pnp"):
        deck, cards = ours.case.deck, ours.case.cards
        if deck == "image" and (floor := find("image", "floor script", cards)):
            ratio = ours.seconds / floor.seconds
            lines.append(f"image {cards:,}: {ratio:.2f}x the floor's time (target within 2x): "
                         f"{'met' if ratio <= 2 else 'NOT met'}")
            allowance = 300 + ours.size / 2**20
            lines.append(f"image {cards:,}: peak {ours.peak_mb:.0f} MB (target < 300 MB + {ours.size / 2**20:.0f} MB "
                         f"of images = {allowance:.0f} MB): {'met' if ours.peak_mb < allowance else 'NOT met'}")
        if deck == "vector" and (bare := find("vector", "bare reportlab", cards)):
            ratio = ours.cards_per_second / bare.cards_per_second
            lines.append(f"vector {cards:,}: {ratio:.2f}x the bare script's cards/s (target >= 0.7x): "
                         f"{'met' if ratio >= 0.7 else 'NOT met'}")
            if cards >= 5000:
                lines.append(f"vector {cards:,}: peak {ours.peak_mb:.0f} MB (target < 300 MB): "
                             f"{'met' if ours.peak_mb < 300 else 'NOT met'}")
    return lines


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--quick", action="store_true", help="90 image cards, 900 vector cards, no drawImage")
    parser.add_argument("--full", action="store_true", help="also reportlab drawImage at 900 cards")
    parser.add_argument("--work", type=Path, default=Path(tempfile.gettempdir()) / "pnp-benchmark",
                        help="where art, games and PDFs go (kept between runs)")
    args = parser.parse_args()
    image_sizes, vector_sizes = ([90], [900]) if args.quick else ([90, 900], [900, 5000])
    drawimage_sizes = [] if args.quick else ([90, 900] if args.full else [90])
    work = args.work.resolve()
    work.mkdir(parents=True, exist_ok=True)
    # pnp keeps converted font subsets in its cache; the bare script reads the same files
    os.environ["PNP_CACHE_DIR"] = str(work / "cache")
    print(f"machine: {machine()}", flush=True)
    started = time.perf_counter()
    warm_up(work, image_sizes, vector_sizes)
    results = []
    for case in plan_cases(work, image_sizes, vector_sizes, drawimage_sizes):
        print(f"  {case.deck} deck, {case.cards:,} cards: {case.tool} ...", end="", flush=True)
        results.append(measure(case, work))
        print(f" {results[-1].seconds:.2f} s, {results[-1].peak_mb:.0f} MB", flush=True)
    print()
    print(table(results))
    print()
    for line in verdicts(results):
        print(line)
    print(f"\nbenchmark took {time.perf_counter() - started:.0f} s; work folder {work}")


if __name__ == "__main__":
    main()
