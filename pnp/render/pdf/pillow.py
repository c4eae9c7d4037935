"""Pillow's Image module, loaded by the first image pnp decodes rather than by reportlab's import.

reportlab imports ``PIL.Image`` when it is imported (``reportlab.lib.utils``), for pictures it would
decode itself. pnp gives reportlab none: PNG and JPEG art goes into the PDF as it is
(:mod:`pnp.render.pdf.pdf_images`), and art that must change is decoded by pnp here. Loading Pillow's
Image module (its C core, EXIF and TIFF tag tables) was 8 ms of every start, 5 % of a 90-card image
build (docs/benchmarks.md), for nothing in every build whose art passes through.

The standard library's :class:`importlib.util.LazyLoader` puts a module in ``sys.modules`` that runs
on its first attribute use. Python 3.11's is not thread-safe (a second thread can see the module half
run; fixed in 3.12), and images are read on several threads, so pnp's own uses go through
:func:`pillow_image`, which loads it under a lock.
"""

from __future__ import annotations

import importlib.util
import sys
import threading
from types import ModuleType

_LOADING = threading.Lock()


def defer_pillow_image() -> None:
    """Make ``PIL.Image`` a module that loads when first used; a no-op once anything has imported it."""
    if "PIL.Image" in sys.modules:
        return
    try:
        import PIL  # the package itself is small: its version and nothing else
        spec = importlib.util.find_spec("PIL.Image")
    except ImportError:
        return  # reportlab's own import will say that Pillow is missing
    if spec is None or spec.loader is None:
        return
    spec.loader = importlib.util.LazyLoader(spec.loader)
    module = importlib.util.module_from_spec(spec)
    sys.modules["PIL.Image"] = module
    spec.loader.exec_module(module)
    # `from PIL import Image` then takes the attribute: the import system would otherwise ask the
    # module for its __spec__, which is an attribute use, and load it at once
    PIL.Image = module  # type: ignore[attr-defined]


def pillow_image() -> ModuleType:
    """``PIL.Image``, loaded, one thread at a time."""
    with _LOADING:
        from PIL import Image

        Image.open  # noqa: B018 - any attribute runs a deferred module
    return Image
