"""Copying an image file's byte ranges into a PDF: the same bytes whichever way they are copied."""

from __future__ import annotations

import io
import os
import random
from pathlib import Path

import pytest

from pnp.render.pdf import stream_contents
from pnp.render.pdf.stream_contents import FileRanges, ImageChangedError


def ranged_file(tmp_path: Path, size: int) -> tuple[FileRanges, bytes]:
    data = random.Random(size).randbytes(size)
    path = tmp_path / "art.bin"
    path.write_bytes(data)
    cuts = sorted(random.Random(1).sample(range(1, size), 12))
    ranges = tuple((start, end - start) for start, end in zip(cuts[::2], cuts[1::2], strict=True))
    info = os.stat(path)
    expected = b"".join(data[start:start + length] for start, length in ranges)
    return FileRanges(path, ranges, (info.st_size, info.st_mtime_ns)), expected


@pytest.mark.parametrize("size", [5_000, 3_000_000])
def test_write_to_copies_exactly_the_ranges(tmp_path, size):
    ranges, expected = ranged_file(tmp_path, size)
    out = io.BytesIO()
    assert ranges.write_to(out) == len(expected) == ranges.length
    assert out.getvalue() == expected == b"".join(ranges.chunks())


def test_ranges_longer_than_the_buffer_go_out_in_pieces(tmp_path, monkeypatch):
    """A file bigger than WHOLE_FILE_LIMIT is copied through a buffer of that size, memory stays flat."""
    monkeypatch.setattr(stream_contents, "WHOLE_FILE_LIMIT", 4096)
    monkeypatch.setattr(stream_contents, "COPY_CHUNK", 4096)
    monkeypatch.setattr(stream_contents._buffers, "buffer", bytearray(4096), raising=False)
    ranges, expected = ranged_file(tmp_path, 200_000)
    sizes = []

    class Recording(io.BytesIO):
        def write(self, data) -> int:
            sizes.append(len(data))
            return super().write(data)

    out = Recording()
    assert ranges.write_to(out) == len(expected)
    assert out.getvalue() == expected
    assert max(sizes) <= 4096 and len(sizes) > 1


def test_a_file_changed_since_it_was_read_is_refused(tmp_path):
    ranges, _ = ranged_file(tmp_path, 5_000)
    ranges.path.write_bytes(b"shorter")
    with pytest.raises(ImageChangedError):
        ranges.write_to(io.BytesIO())
