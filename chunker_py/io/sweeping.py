"""``--format sweep``: every file of the run read, then one sweep over all of them
(``measures/sweep.py``): one JSON line per configuration, then the ranking line.

The sweep uses the command line's settings (rules do not apply: every configuration is
run on every file alike). A file that cannot be read or decoded within the limits is
reported and left out; the others are swept.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Sequence

from ..config.settings import Settings
from ..engine.errors import ChunkerError, DocumentError, SettingError
from ..pipeline.sweep import Document, sweep
from ..text.documents import decode_document
from .corpus import Output, Task
from .questions import check_against


def read_documents(
    tasks: Sequence[Task], output: Output, report: Callable[[str], None]
) -> list[Document]:
    """The tasks' files as documents with their questions; a refused file is reported."""
    documents = []
    for task in tasks:
        try:
            data = task.data
            if data is None:
                with open(os.path.join(task.root, task.path), "rb") as f:
                    data = f.read()
            text = decode_document(
                data,
                name=task.display or f"The file {task.path}",
                max_bytes=output.max_bytes,
                max_code_points=output.max_code_points,
            )
        except (DocumentError, SettingError) as exc:
            report(f"{exc.message} Skipped.")
            continue
        except OSError as exc:
            report(f"Cannot read {task.path}: {exc.strerror}. Skipped.")
            continue
        if task.questions is not None and task.questions_must_fit is not None:
            try:  # the run's only file: a question that does not fit it stops the run
                check_against(text, task.questions, name=task.questions_must_fit)
            except DocumentError as exc:
                raise ChunkerError(exc.message, field="questions") from None
        name = task.settings.source_name or None
        documents.append(Document(name, text, task.questions or ()))
    return documents


def sweep_lines(
    documents: Sequence[Document], settings: Settings, output: Output, objective: str
) -> str:
    """The ``--format sweep`` output for ``documents``."""
    found = sweep(
        documents,
        settings,
        objective=objective,
        max_chunks=output.max_chunks,
        max_code_points=output.max_code_points,
    )
    return found.jsonl()
