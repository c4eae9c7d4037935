"""Form XObjects that keep their transparency.

reportlab gives a form the fonts and procedure sets as resources, but not the graphics states its
content selects with ``gs`` (fill and stroke alpha): pdfdoc.PDFFormXObject.format leaves them out.
A viewer then ignores the ``gs``, and a white veil meant at 55 % covers the card under it: the
booklet's dimmed example cards printed as blank rectangles. Every form pnp makes ends here.
"""

from __future__ import annotations

from typing import Any

from reportlab.pdfbase.pdfdoc import PDFResourceDictionary, xObjectName


def end_form(canvas: Any) -> None:
    """``canvas.endForm()``, then the graphics states the form used added to its resources."""
    name = canvas._formData[0]
    canvas.endForm()
    form = canvas._doc.idToObject[xObjectName(name)]
    if not form.ExtGState:
        return  # nothing left out: the form stays byte for byte as reportlab writes it
    resources = PDFResourceDictionary()
    resources.basicFonts()
    if form.hasImages:
        resources.allProcs()
    else:
        resources.basicProcs()
    if form.XObjects:
        resources.XObject = form.XObjects
    resources.ExtGState = form.ExtGState
    form.Resources = resources
