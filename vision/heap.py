"""Give the memory of each frame's work back to the system (glibc's allocator), where it can.

A frame is 2.7 MB (1280x720 BGR) and the card reader makes a few of its size. glibc's
``malloc`` serves such blocks from ``mmap`` (given back on ``free``) only until the first one
is freed: then it raises its mmap threshold past that size, and from there on they come
from the thread's arena, which keeps what was freed. The watcher's thread thus grew an
arena of about 20 MB of freed frames. :func:`keep_large_blocks_mapped` fixes the threshold
(so frame-sized blocks stay mapped and are unmapped when freed) and :func:`trim` returns
the free pages left in the arenas; the watcher calls the first when it starts and the
second after each frame. Elsewhere than glibc (musl, macOS) both do nothing.

>>> keep_large_blocks_mapped()  # this machine's C library is glibc
True
"""

from __future__ import annotations

import ctypes
import ctypes.util
from functools import cache

M_MMAP_THRESHOLD = -3
"""``mallopt``'s parameter number for the mmap threshold (glibc's malloc.h)."""
MMAP_THRESHOLD = 128 * 1024
"""Blocks this large or larger are mapped on their own (glibc's starting value, kept)."""


@cache
def _glibc() -> ctypes.CDLL | None:
    """The C library when it is glibc (it has ``malloc_trim`` and ``mallopt``)."""
    name = ctypes.util.find_library("c")
    if name is None:
        return None
    try:
        library = ctypes.CDLL(name)
    except OSError:
        return None
    if not all(hasattr(library, symbol) for symbol in ("malloc_trim", "mallopt")):
        return None
    library.malloc_trim.argtypes = [ctypes.c_size_t]
    library.mallopt.argtypes = [ctypes.c_int, ctypes.c_int]
    return library


def keep_large_blocks_mapped() -> bool:
    """Fix glibc's mmap threshold at :data:`MMAP_THRESHOLD` for this process; whether it
    could."""
    library = _glibc()
    return library is not None and bool(library.mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD))


def trim() -> bool:
    """Give the free pages of every malloc arena back to the system; whether any were."""
    library = _glibc()
    return library is not None and bool(library.malloc_trim(0))
