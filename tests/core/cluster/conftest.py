"""One real Dask cluster for the tests of this folder: a scheduler in this process and two
worker processes of one thread each."""

from __future__ import annotations

import logging
from collections.abc import Iterator

import dask
import pytest
from distributed import LocalCluster


@pytest.fixture(scope="package")
def cluster() -> Iterator[LocalCluster]:
    # One retry of a task whose worker died, then it is reported: a short kill test. A
    # worker holds only the task it runs (saturation 1), so a death blames that one alone.
    config = {
        "distributed.scheduler.allowed-failures": 1,
        "distributed.scheduler.worker-saturation": 1.0,
    }
    with (
        dask.config.set(config),
        LocalCluster(
            n_workers=2,
            threads_per_worker=1,
            processes=True,
            dashboard_address=None,
            silence_logs=logging.CRITICAL,
        ) as local,
    ):
        yield local
