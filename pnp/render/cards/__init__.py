"""Card faces and backs, and the card sheets and PNGs made of them.

In: cards bound to their layouts (:mod:`pnp.compose.bind`), fonts and art. Out: a painter that draws
any face or back, the card-sheet PDFs (over :mod:`pnp.render.sheets`) and per-card PNGs.
"""
