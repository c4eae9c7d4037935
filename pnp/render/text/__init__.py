"""Text on the page: fonts by role, line breaking, and the paragraph the rulebooks set.

In: the game's font choice and the runs of text a card box or rulebook holds. Out: embeddable fonts
(subset, checked for coverage) and lines broken to a width. Imports nothing else of render.
"""
