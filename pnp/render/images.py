"""Card art from image files, placed in a box and clipped to it."""

from __future__ import annotations

from pathlib import Path


def draw_image(canvas, path: Path, pixel_size: tuple[int, int], x: float, y: float, w: float, h: float,
               fit: str = "cover") -> None:
    """Scale to cover (fill, cropping) or contain (fit whole) the box, centred."""
    canvas.saveState()
    clip = canvas.beginPath()
    clip.rect(x, y, w, h)
    canvas.clipPath(clip, stroke=0, fill=0)
    image_w, image_h = pixel_size
    scale = (max if fit == "cover" else min)(w / image_w, h / image_h)
    draw_w, draw_h = image_w * scale, image_h * scale
    canvas.drawImage(str(path), x + (w - draw_w) / 2, y + (h - draw_h) / 2, draw_w, draw_h, mask="auto")
    canvas.restoreState()
