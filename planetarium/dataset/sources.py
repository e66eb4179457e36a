"""Where dataset rows come from: a directory written by ``planetarium data generate`` (or its
``rows.jsonl``), a YAML configuration (generated in memory), a local copy of the published
dataset's Parquet files, or the published dataset itself on the Hugging Face Hub.

The published dataset (``BatsResearch/planetarium``) has the row columns but no split columns:
its default configuration's ``data/train-*.parquet`` and ``data/test-*.parquet`` are the
held-out split.  Its rows get ``split_heldout`` from the file they are in, and their random
folds from the published generator's rule with its settings (seed 42, 5 folds; the rule deals
out every id of a domain, so a complete copy gets the folds the published ``random``
configuration holds, a partial one other folds); fold 4 is our ``split_random`` test fold.
"""

from __future__ import annotations

import errno
import re
from pathlib import Path

from ..errors import MissingExtraError, PlanetariumError
from ..jsonl import JsonLineError, decode, numbered_lines
from .generator import COLUMNS
from .splits import assign_random
from .writer import ROWS_FILE

#: The published dataset on the Hugging Face Hub.
PUBLISHED_ID = "BatsResearch/planetarium"
#: The published generator's random split settings (its dataset_config.yaml), and our test fold.
PUBLISHED_SEED, PUBLISHED_FOLDS, PUBLISHED_TEST_FOLD = 42, 5, 4
_HUB_ID = re.compile(r"^[\w.-]+/[\w.-]+$")


class DatasetSourceError(PlanetariumError, OSError):
    """A dataset source that cannot be read (nothing there, or the Hub out of reach)."""


def read_rows(source: str | Path) -> list[dict]:
    """Every row of ``source`` (see the module docstring), with the split columns."""
    path = Path(source)
    if path.suffix in (".yaml", ".yml"):
        from .config import load_config
        from .generator import generate

        return generate(load_config(path))
    if path.is_dir():
        if (path / ROWS_FILE).is_file():
            return read_jsonl(path / ROWS_FILE)
        if any((path / "data").glob("*.parquet")):
            return read_parquet_dir(path)
        raise DatasetSourceError(f"{path}: neither {ROWS_FILE} nor data/*.parquet is in this directory")
    if path.exists():
        return read_jsonl(path)
    if _HUB_ID.match(str(source)) and not Path(str(source).split("/")[0]).exists():
        return read_parquet_dir(download(str(source)))
    raise FileNotFoundError(errno.ENOENT, "No such file or directory", str(source))


def download(repo_id: str) -> Path:
    """The default configuration's Parquet files of a Hub dataset, in the local Hub cache."""
    try:
        from huggingface_hub import snapshot_download
        from huggingface_hub.errors import EntryNotFoundError
    except ImportError as err:
        raise MissingExtraError("huggingface_hub", "data") from err
    try:
        return Path(snapshot_download(repo_id, repo_type="dataset", allow_patterns=["data/*.parquet"]))
    except (OSError, EntryNotFoundError) as err:
        reason = str(err).strip().splitlines()[0] if str(err).strip() else type(err).__name__
        raise DatasetSourceError(
            f"cannot download the dataset '{repo_id}' from the Hugging Face Hub ({reason}); "
            "when offline, pass a local copy of its Parquet files (a folder with "
            "data/train-*.parquet and data/test-*.parquet)") from err


def read_parquet_dir(path: Path) -> list[dict]:
    """Rows of ``path/data/{train,test}-*.parquet`` (the published layout), sorted by id."""
    try:
        import pyarrow.parquet as pq
    except ImportError as err:
        raise MissingExtraError("pyarrow", "data") from err
    rows: list[dict] = []
    for split in ("train", "test"):
        for file in sorted((path / "data").glob(f"{split}-*.parquet")):
            table = pq.read_table(file)
            missing = sorted(set(COLUMNS) - set(table.column_names))
            if missing:
                raise DatasetSourceError(f"{file}: not Planetarium rows (no column {', '.join(missing)})")
            for row in table.to_pylist():
                row.setdefault("split_heldout", split)
                rows.append(row)
    rows.sort(key=lambda row: row["id"])
    if rows and "random_fold" not in rows[0]:
        by_domain: dict[str, list[dict]] = {}
        for row in rows:
            by_domain.setdefault(row["domain"], []).append(row)
        assign_random(by_domain, PUBLISHED_SEED, PUBLISHED_FOLDS, PUBLISHED_TEST_FOLD)
    return rows


def read_jsonl(path: str | Path) -> list[dict]:
    """Rows of a JSON-lines file; anything else (a binary file, ``/etc/passwd``, one broken
    line, a row without every dataset column) is refused naming the file and line, never half
    read."""
    rows = []
    try:
        with open(path, "rb") as stream:
            for number, line in numbered_lines(stream, str(path)):
                try:
                    row = decode(line.decode("utf-8"))
                except JsonLineError:
                    row = None
                if not isinstance(row, dict):
                    raise DatasetSourceError(f"{path}, line {number}: not a dataset row "
                                             "(a JSON object); is this a dataset file?")
                missing = [column for column in COLUMNS if column not in row]
                if missing:
                    raise DatasetSourceError(f"{path}, line {number}: not a dataset row "
                                             f"(no column {', '.join(missing)})")
                rows.append(row)
    except UnicodeDecodeError as err:
        raise DatasetSourceError(f"{path}: not a text file of dataset rows ({err.reason})") from err
    except JsonLineError as err:
        raise DatasetSourceError(str(err)) from err
    return rows
