"""numpy's matrix products on one OpenBLAS thread: the card reader's are too small to share.

numpy's OpenBLAS starts a thread per core and splits every matrix product between them. The
glyph model's products are small (a few hundred candidates by a few hundred features), so
handing them over costs more than it saves: on this machine (two shared cores) the glyph-read
stage of a deal frame took 16.6 ms of process time with OpenBLAS's own thread count against
1.95 ms with one thread, and the whole detection 85 ms against 38 ms. ``OPENBLAS_NUM_THREADS``
acts only before numpy loads, so :func:`one_blas_thread` sets the count at run time, once
per process.
"""

from __future__ import annotations

import ctypes
from functools import cache

import numpy as np  # noqa: F401  (loads numpy's OpenBLAS, so it is among the mappings)

#: OpenBLAS's thread-count setters: numpy's own build (scipy-openblas, 64-bit integers and
#: not), then a system OpenBLAS (Raspberry Pi OS's python3-numpy).
SETTERS = (
    "scipy_openblas_set_num_threads64_",
    "scipy_openblas_set_num_threads",
    "openblas_set_num_threads64_",
    "openblas_set_num_threads",
)
GETTERS = tuple(name.replace("_set_", "_get_") for name in SETTERS)


def openblas_libraries(maps: str = "/proc/self/maps") -> list[str]:
    """The paths of the OpenBLAS libraries mapped into this process (none where ``maps``,
    Linux's list of the process's mappings, cannot be read)."""
    try:
        with open(maps, encoding="utf-8") as lines:
            fields = [line.split(maxsplit=5) for line in lines]
    except OSError:
        return []
    paths = {parts[5].strip() for parts in fields if len(parts) == 6}
    return sorted(path for path in paths if "openblas" in path.rsplit("/", 1)[-1].lower())


def blas_function(names: tuple[str, ...]) -> list[ctypes._NamedFuncPointer]:
    """The first of ``names`` that each mapped OpenBLAS exports."""
    found = []
    for path in openblas_libraries():
        library = ctypes.CDLL(path)
        name = next((name for name in names if hasattr(library, name)), None)
        if name is not None:
            found.append(getattr(library, name))
    return found


@cache
def one_blas_thread() -> bool:
    """Make every OpenBLAS in the process use one thread (once per process); returns
    whether one was found and set."""
    setters = blas_function(SETTERS)
    for setter in setters:
        setter.argtypes = (ctypes.c_int,)
        setter.restype = None
        setter(1)
    return bool(setters)


def blas_threads() -> list[int]:
    """The thread count of each OpenBLAS in the process."""
    counts = []
    for getter in blas_function(GETTERS):
        getter.restype = ctypes.c_int
        counts.append(int(getter()))
    return counts
