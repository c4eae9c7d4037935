"""What goes into the PDF file itself, below the drawing: image XObjects and forms.

In: picture files and repeated content. Out: image and form XObjects that copy art into the PDF
as it is where it can, and decode it only where it must. Imports nothing else of render.
"""
