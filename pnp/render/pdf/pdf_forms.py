"""Form XObjects that keep their transparency.

reportlab gives a form the fonts and procedure sets as resources, but not the graphics states its
content selects with ``gs`` (fill and stroke alpha), the shadings it paints with ``sh`` (SVG
gradients) or the colour spaces it sets (spot colours): pdfdoc.PDFFormXObject.format leaves them
out, and a page's resources hold them only for its own content. A viewer then ignores the ``gs``,
and a white veil meant at 55 % covers the card under it (the booklet's dimmed example cards printed
as blank rectangles); a gradient without its shading prints black (an SVG frame on every card of a
singles PDF after the first). Every form pnp makes ends here.
"""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase.pdfdoc import PDFResourceDictionary, xObjectName


def end_form(canvas: Any) -> None:
    """``canvas.endForm()``, then the graphics states, shadings and colour spaces the form used added to its
    resources."""
    name = canvas._formData[0]
    shadings, colours = dict(canvas._shadingUsed), dict(canvas._colorsUsed)  # the form's own, until endForm
    canvas.endForm()
    form = canvas._doc.idToObject[xObjectName(name)]
    if not (form.ExtGState or shadings or colours):
        return  # nothing left out: the form stays byte for byte as reportlab writes it
    resources = PDFResourceDictionary()
    resources.basicFonts()
    if form.hasImages:
        resources.allProcs()
    else:
        resources.basicProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    if form.ExtGState:
        resources.ExtGState = form.ExtGState
    resources.setShading(shadings)
    resources.setColorSpace(colours)
    form.Resources = resources
