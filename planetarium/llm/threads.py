"""How many threads torch may use on a CPU.

torch starts one thread per core it sees, in every process.  On a small shared machine that
oversubscribes the cores: the tiny-model eval on 2 busy cores (load 9) took 23-26 s with torch's
2 threads and 13-16 s with 1.  Half the usable CPUs, shared among the processes that run torch,
is the cap; a thread count the user set (``OMP_NUM_THREADS``) stands.
"""

from __future__ import annotations

import os
from typing import Any

from ..pool import usable_cpus


def torch_threads(processes: int = 1) -> int:
    """Threads per torch process: half the usable CPUs divided among ``processes``, at least 1."""
    return max(1, usable_cpus() // (2 * max(1, processes)))


def cap_torch_threads(torch: Any, processes: int = 1) -> int:
    """Apply :func:`torch_threads` unless ``OMP_NUM_THREADS`` is set; returns the count in use."""
    if not os.environ.get("OMP_NUM_THREADS"):
        torch.set_num_threads(torch_threads(processes))
    return torch.get_num_threads()
