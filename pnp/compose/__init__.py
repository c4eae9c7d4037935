"""Stage 3: the game's texts bound to its model, before anything is checked or drawn.

In: the typed game (:mod:`pnp.model`) and its rules module. Out: rule texts rendered in Jinja2's
sandbox and parsed into blocks (:mod:`pnp.compose.ruletext`), and card layouts bound to every card
(:mod:`pnp.compose.bind`), with every problem found on the way as a diagnostic. validate/ checks
these objects and render/ draws them; neither parses a template or a Markdown text of its own.
"""
