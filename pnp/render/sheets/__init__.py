"""Paper and what is printed around the cards: imposition, margins, marks, the calibration sheet.

In: a paper size, a piece size and print options. Out: a sheet plan (where each card, cut mark,
label and ruler goes) and the drawing of it into a PDF. Knows nothing of what a card shows.
"""
