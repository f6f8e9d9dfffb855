"""Many records analysed at once, on every core: an evening's deals for ``tally analyse
--match/--event``, several FILEs, and a match's analysis sheet.

Each record is analysed by :func:`tally.analysis.findings.analyse` with the same samples and
seed as it would be alone, so the findings do not depend on how many processes share the work
(tested); they come back in the order of the records.
"""

from __future__ import annotations

import multiprocessing
import os
from collections.abc import Iterator, Sequence

from tally.analysis.findings import DEFAULT_SAMPLES, DealAnalysis, analyse
from tally.engine.notation import DealRecord


def cores() -> int:
    """The processors this process may run on (at least 1)."""
    try:
        return max(1, len(os.sched_getaffinity(0)))
    except AttributeError:  # not on Linux
        return max(1, os.cpu_count() or 1)


def _one(job: tuple[str, DealRecord, int, int]) -> DealAnalysis:
    ref, record, samples, seed = job
    return analyse(record, samples=samples, seed=seed, file=ref)


def analyse_records(
    records: Sequence[tuple[str, DealRecord]],
    *,
    samples: int = DEFAULT_SAMPLES,
    seed: int = 0,
    jobs: int = 0,
) -> Iterator[DealAnalysis]:
    """The findings of each ``(name, record)`` in ``records``, in their order, as each is
    ready: analysed by ``jobs`` processes (0: one per core; never more than there are
    records; 1: in this process)."""
    jobs = min(jobs or cores(), len(records))
    work = [(ref, record, samples, seed) for ref, record in records]
    if jobs <= 1:
        yield from map(_one, work)
        return
    # spawned, not forked: the caller may be a threaded server, and a fork copies its locks
    with multiprocessing.get_context("spawn").Pool(jobs) as pool:
        yield from pool.imap(_one, work)
