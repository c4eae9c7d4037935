"""Rulebooks, booklets and player aids, set with reportlab Platypus.

In: a rule text parsed into blocks (:mod:`pnp.compose`), aid tables computed by the rules model, and
card figures drawn by :mod:`pnp.render.cards`. Out: rules.pdf, rules-booklet.pdf, aid.pdf and
aid-cards.pdf.
"""
