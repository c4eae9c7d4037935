"""Stage 5: draw cards, sheets, rulebooks and aids as PDF.

In: checked objects only: the typed game (:mod:`pnp.model`), cards bound to their layouts and rule
texts parsed into blocks (:mod:`pnp.compose`), aid tables from the rules model. Out: PDF drawing and
PNG pictures, handed to :mod:`pnp.write`, which owns every file. Render reports no input errors of
its own; where only drawing can tell (a text that does not fit, a glyph a font lacks), it returns a
finding that the caller words.

The rooms, each importing only those below it:

- :mod:`pnp.render.rulebook`: rulebooks, booklets and player aids;
- :mod:`pnp.render.cards`: faces, backs, card sheets and card PNGs;
- :mod:`pnp.render.sheets`: paper, imposition, marks, the calibration sheet;
- :mod:`pnp.render.text`: fonts, line breaking, paragraphs;
- :mod:`pnp.render.pdf`: image and form XObjects.

reportlab wraps every compressed stream in ASCII85 by default, a leftover of 7-bit transports that
makes files 25 % larger and costs a third of our build time; binary streams are what print shops
expect, so it is switched off once for every renderer.
"""

from reportlab import rl_config

rl_config.useA85 = 0
