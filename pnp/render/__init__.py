"""Stage 4: render cards, sheets, rulebooks and aids as PDF drawing.

reportlab wraps every compressed stream in ASCII85 by default, a leftover of
7-bit transports that makes files 25 % larger and costs a third of our build
time; binary streams are what print shops expect, so we switch it off once
for every renderer.
"""

from reportlab import rl_config

rl_config.useA85 = 0
