"""A cutter that kills the Dask worker running it (imported on the workers)."""

from __future__ import annotations

import os
from dataclasses import dataclass

from chunker_py.io.corpus import Done, Output, Task, cut


@dataclass(frozen=True)
class KillingCutter:
    """``die-once*`` kills its worker the first time it is cut (a flag file in
    ``flags`` remembers it), ``die-always*`` every time; the others are cut as usual."""

    flags: str

    def __call__(self, task: Task, output: Output) -> Done:
        name = os.path.basename(task.path)
        if name.startswith("die-once"):
            flag = os.path.join(self.flags, name)
            if not os.path.exists(flag):
                open(flag, "w").close()
                os._exit(1)
        if name.startswith("die-always"):
            os._exit(1)
        return cut(task, output)
