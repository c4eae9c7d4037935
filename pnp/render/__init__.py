"""Stage 4: render cards, sheets, rulebooks and aids as PDF drawing.

reportlab wraps every compressed stream in ASCII85 by default, a leftover of
7-bit transports that makes files 25 % larger and costs a third of our build
time; binary streams are what print shops expect, so we switch it off once
for every renderer. Pillow, which reportlab imports with itself, is left to load
when pnp first decodes a picture (:mod:`pnp.render.pdf.pillow`).
"""

from pnp.render.pdf.pillow import defer_pillow_image

defer_pillow_image()

from reportlab import rl_config  # noqa: E402 - after Pillow is deferred, since reportlab imports it

rl_config.useA85 = 0
