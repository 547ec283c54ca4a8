"""Freed frame buffers kept in the process for the next frame instead of handed back to the kernel.

A 1280x720 frame passes through the card reader as a few dozen arrays of 1-4 MB (masks,
label images, integral images, OpenCV's own scratch buffers), made and freed every frame.
glibc's malloc gives blocks that large back to the kernel when they are freed (each is
mapped on its own, or trimmed off the top of the heap), so the next frame faults every
page in again: about 2,400 page faults, 4-6 ms of kernel time in a 20-25 ms detection on
this machine. :func:`keep_freed_memory` raises glibc's two limits once per process, so the
blocks stay in the heap and are reused; the process then keeps its peak heap instead of
shrinking after every frame (its peak is the same).
"""

from __future__ import annotations

import ctypes
import os
import sys
from functools import cache

#: Blocks up to this size come from the heap instead of a mapping of their own (16 MB: a
#: 1920x1080 label image is 8 MB; the most glibc accepts on a 32-bit Raspberry Pi OS).
MMAP_THRESHOLD = 16 << 20
#: Free memory at the top of the heap is handed back to the kernel only beyond this.
TRIM_THRESHOLD = 128 << 20
#: glibc's ``mallopt`` parameter numbers (malloc.h).
M_TRIM_THRESHOLD = -1
M_MMAP_THRESHOLD = -3


def is_glibc() -> bool:
    """Whether this process runs on glibc (Linux, not musl)."""
    if not sys.platform.startswith("linux"):
        return False
    try:
        return os.confstr("CS_GNU_LIBC_VERSION") is not None
    except (ValueError, OSError):
        return False


@cache
def keep_freed_memory() -> bool:
    """Make glibc keep freed blocks up to ``MMAP_THRESHOLD`` in the heap, and free heap up
    to ``TRIM_THRESHOLD``, for reuse (once per process). Returns whether both were set;
    where the C library is not glibc nothing is changed and it is False."""
    if not is_glibc():
        return False
    mallopt = ctypes.CDLL(None).mallopt
    mallopt.argtypes = (ctypes.c_int, ctypes.c_int)
    mallopt.restype = ctypes.c_int
    heap = mallopt(M_MMAP_THRESHOLD, MMAP_THRESHOLD)
    return bool(heap and mallopt(M_TRIM_THRESHOLD, TRIM_THRESHOLD))
