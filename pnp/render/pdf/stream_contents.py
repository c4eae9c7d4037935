"""Where an image stream's bytes live until the PDF is saved: byte ranges of a file, or a spool file.

A deck's art is never held in memory: a stream is described by where its bytes are, and read in
chunks only when pnp/render/pdf/pdf_images.py splices it into the saved file. Kept apart from the
splicing because image decoding (pnp/render/pdf/image_decoding.py) makes these contents too, and
neither needs the other's code to do so.
"""

from __future__ import annotations

import os
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO, Protocol

from pnp.diagnostics import DataError

COPY_CHUNK = 1 << 20
WHOLE_FILE_LIMIT = 16 << 20  # bigger image files are copied in pieces, so memory stays flat


class StreamContent(Protocol):
    """Where a stream's (already encoded) bytes come from; read only when the file is written."""

    @property
    def length(self) -> int: ...

    def chunks(self) -> Iterator[bytes]: ...


class ImageChangedError(DataError, RuntimeError):
    """An image file changed between drawing and saving: its recorded size no longer holds.

    Saving art while a build runs is the user's doing, not a bug: a message, no traceback.
    """

    def __init__(self, message: str) -> None:
        super().__init__(message, None, None, "build again once the art is saved")


@dataclass(frozen=True)
class FileRanges:
    """Byte ranges of a file, concatenated: a whole JPEG, or the IDAT chunk data of a PNG.

    ``signature`` is (size, mtime_ns) when the ranges were read; a file edited before the save
    would otherwise splice bytes that no longer match the dictionary written for them.
    """

    path: Path
    ranges: tuple[tuple[int, int], ...]
    signature: tuple[int, int]

    @property
    def length(self) -> int:
        return sum(length for _, length in self.ranges)

    def chunks(self) -> Iterator[bytes]:
        """Small files in one piece (a PNG's IDAT data comes in many 8-64 KB chunks: one write, not
        dozens); big ones in pieces of at most COPY_CHUNK."""
        with open(self.path, "rb") as handle:
            stat = os.fstat(handle.fileno())
            if (stat.st_size, stat.st_mtime_ns) != self.signature:
                raise ImageChangedError(f"{self.path} changed while the PDF was being written; build again")
            if stat.st_size <= WHOLE_FILE_LIMIT:
                data = memoryview(handle.read())
                if len(data) != stat.st_size:
                    raise ImageChangedError(f"{self.path} is shorter than when it was read; build again")
                yield b"".join(data[offset:offset + length] for offset, length in self.ranges)
                return
            for offset, length in self.ranges:
                handle.seek(offset)
                while length > 0:
                    block = handle.read(min(length, COPY_CHUNK))
                    if not block:
                        raise ImageChangedError(f"{self.path} is shorter than when it was read; build again")
                    length -= len(block)
                    yield block


    def write_to(self, out: BinaryIO) -> int:
        """Copy the ranges into ``out`` through one reused buffer; returns the bytes written.

        Reading each file into a new bytes object makes the system hand out and zero fresh memory
        for every card; a 715 MB deck copies about twice as fast through a buffer that is reused.
        """
        total = self.length
        buffer = _copy_buffer(min(total, WHOLE_FILE_LIMIT))
        view = memoryview(buffer)
        with open(self.path, "rb", buffering=0) as handle:
            info = os.fstat(handle.fileno())
            if (info.st_size, info.st_mtime_ns) != self.signature:
                raise ImageChangedError(f"{self.path} changed while the PDF was being written; build again")
            filled = written = 0
            for offset, length in self.ranges:
                while length > 0:
                    if filled == len(buffer):
                        written += out.write(view[:filled])
                        filled = 0
                    got = _read_at(handle, view[filled:filled + length], offset)
                    if got == 0:
                        raise ImageChangedError(f"{self.path} is shorter than when it was read; build again")
                    filled, offset, length = filled + got, offset + got, length - got
            written += out.write(view[:filled])
        return written


_buffers = threading.local()


def _copy_buffer(size: int) -> bytearray:
    """This thread's copy buffer, grown to at least ``size`` bytes (never beyond the largest image file)."""
    buffer = getattr(_buffers, "buffer", None)
    if buffer is None or len(buffer) < size:
        buffer = _buffers.buffer = bytearray(max(size, COPY_CHUNK))
    return buffer


def _read_at(handle: BinaryIO, into: memoryview, offset: int) -> int:
    if hasattr(os, "preadv"):
        return os.preadv(handle.fileno(), [into], offset)
    handle.seek(offset)
    return handle.readinto(into)


class Spool:
    """A temporary file for streams pnp makes (decoded or recompressed images), shared by a process.

    Parked on disk rather than in memory, so a deck of decoded art costs no more memory than one
    that passes through.
    """

    def __init__(self) -> None:
        self._file: BinaryIO | None = None
        self._lock = threading.Lock()

    def add(self, data: bytes) -> SpoolRange:
        with self._lock:
            if self._file is None:
                self._file = tempfile.TemporaryFile(prefix="pnp-images-")  # noqa: SIM115 - lives as long as the process
            offset = self._file.seek(0, os.SEEK_END)
            self._file.write(data)
        return SpoolRange(self, offset, len(data))

    def read(self, offset: int, length: int) -> bytes:
        with self._lock:
            assert self._file is not None
            self._file.seek(offset)
            return self._file.read(length)


@dataclass(frozen=True)
class SpoolRange:
    """One stream's bytes in a :class:`Spool`."""

    spool: Spool
    offset: int
    length: int

    def chunks(self) -> Iterator[bytes]:
        done = 0
        while done < self.length:
            block = self.spool.read(self.offset + done, min(self.length - done, COPY_CHUNK))
            if not block:
                raise RuntimeError("the image spool file is shorter than recorded")
            done += len(block)
            yield block


def read_all(content: StreamContent) -> bytes:
    return b"".join(content.chunks())
