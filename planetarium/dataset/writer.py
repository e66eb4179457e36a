"""Write generated rows to a directory laid out like the published Hugging Face repository
(``BatsResearch/planetarium``), readable offline by Planetarium and by ``datasets``.

Layout of ``DIR``::

    rows.jsonl                       every row, every column (the source of truth; load_rows reads it)
    data/{train,test}-00000-of-00001.parquet     config "default": the held-out split's train and
                                     test rows; "excluded" rows (outside the held-out combinations,
                                     but a test problem up to renaming) are in no default split
    random/{zero,...}-00000-of-00001.parquet     config "random": one split per fold
    abstraction/{explicit_to_explicit,...}-...  config "abstraction": one split per class
    placeholder/{placeholder,non.placeholder}-... config "placeholder"
    size/{zero.twenty,...,eighty.inf}-...        config "size": one split per size bin
    README.md                        dataset card: the configurations and the split report
    config.yaml                      the configuration that produced the rows
    .planetarium-dataset             says this command wrote DIR (written first), so a rerun may
                                     replace its files and never those of a folder it did not write

``datasets.load_dataset(DIR)`` gives the default train/test, ``datasets.load_dataset(DIR, "size")``
the size bins, and so on.  Split names follow the published ones ("0-20" is "zero.twenty": a
split name is words joined by dots).  Everything is written deterministically (fixed column
order, no timestamps), so generating twice from one configuration gives byte-identical files.
"""

from __future__ import annotations

import json
import multiprocessing
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from dataclasses import asdict
from itertools import pairwise
from pathlib import Path
from types import ModuleType
from typing import TYPE_CHECKING

from ..errors import MissingExtraError, PlanetariumError
from .config import DatasetConfig
from .generator import COLUMNS
from .splits import ABSTRACTION_CLASSES, abstraction, size_bin, size_bins

if TYPE_CHECKING:
    import pyarrow as pa

SPLIT_COLUMNS = ("split_random", "split_heldout", "random_fold")
ROWS_FILE = "rows.jsonl"
#: Written first into every output directory: only a directory holding it is replaced silently.
MARKER_FILE = ".planetarium-dataset"
_INTEGER = ("id", "num_objects", "init_num_propositions", "goal_num_propositions", "random_fold")
_BOOLEAN = ("init_is_abstract", "goal_is_abstract", "is_placeholder")

_ENCODER = json.JSONEncoder(ensure_ascii=False)

_SMALL = ("zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten",
          "eleven", "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen",
          "eighteen", "nineteen")
_TENS = ("", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety")


def number_word(n: int) -> str:
    """``20 -> "twenty"``, ``45 -> "forty_five"``; 100 and more as digits (a split name may
    hold letters, digits and underscores between its dots)."""
    if n < 20:
        return _SMALL[n]
    if n < 100:
        tens, unit = divmod(n, 10)
        return _TENS[tens] + (f"_{_SMALL[unit]}" if unit else "")
    return str(n)


def split_files(config: DatasetConfig) -> dict[str, dict[str, Callable[[dict], bool]]]:
    """Configuration -> split name -> which rows it may hold, in the order of the dataset card
    (a split no row falls in is not written: ``datasets`` cannot read an empty Parquet file)."""
    bins = config.size_bins
    labels = size_bins(bins)  # one per bin, and the open one last
    size_names = {label: f"{number_word(lo)}.{number_word(hi)}"
                  for label, (lo, hi) in zip(labels[:-1], pairwise((0, *bins)), strict=True)}
    size_names[labels[-1]] = f"{number_word(bins[-1])}.inf"
    return {
        "default": {"train": lambda r: r["split_heldout"] == "train",
                    "test": lambda r: r["split_heldout"] == "test"},
        "random": {number_word(k): _where(lambda r: r["random_fold"], k) for k in range(config.folds)},
        "abstraction": {c: _where(abstraction, c) for c in ABSTRACTION_CLASSES},
        "placeholder": {"placeholder": lambda r: r["is_placeholder"],
                        "non.placeholder": lambda r: not r["is_placeholder"]},
        "size": {name: _where(lambda r: size_bin(r, bins), label)
                 for label, name in size_names.items()},
    }


def _where(column: Callable[[dict], object], value: object) -> Callable[[dict], bool]:
    """The rows whose ``column(row)`` is ``value`` (one closure per value)."""
    return lambda row: column(row) == value


def _folder(config_name: str) -> str:
    return "data" if config_name == "default" else config_name


def _file(config_name: str, split: str) -> str:
    return f"{_folder(config_name)}/{split}-00000-of-00001.parquet"


_CARD = """Planetarium text-to-PDDL rows, written by `planetarium data generate`.

The default configuration (`data/`) is the **held-out split**: `test` holds whole held-out
init -> goal combinations, `train` the rest, less the "excluded" rows (a test problem up to
renaming objects).  The configurations `random` (folds), `abstraction`, `placeholder` and `size`
each split every row.  `rows.jsonl` holds every row with its split columns.
"""


def card_header(files: dict[str, dict]) -> str:
    """The dataset card's YAML front matter: every configuration and its split files."""
    lines = ["---", "configs:"]
    for name, splits in files.items():
        lines += [f"- config_name: {name}", "  data_files:"]
        for split in splits:
            lines += [f"  - split: {split}", f"    path: {_file(name, split)}"]
    return "\n".join(lines + ["---", ""])


def row_json(row: dict) -> str:
    """One row as a JSON line, columns in file order."""
    return _ENCODER.encode({k: row[k] for k in (*COLUMNS, *SPLIT_COLUMNS)})


def write_jsonl(rows: list[dict], path: Path) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.writelines(row_json(row) + "\n" for row in rows)


def arrow_modules() -> tuple[ModuleType, ModuleType]:
    """pyarrow's modules, or the one-line error that names the extra providing them."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as err:
        raise MissingExtraError("pyarrow", "data") from err
    return pa, pq


def rows_table(rows: list[dict]) -> pa.Table:
    """Every row as one Arrow table (needs pyarrow, the ``[data]`` extra)."""
    pa, _ = arrow_modules()
    columns = (*COLUMNS, *SPLIT_COLUMNS)
    schema = pa.schema([(name, pa.int64() if name in _INTEGER else pa.bool_() if name in _BOOLEAN
                         else pa.string()) for name in columns])
    return pa.Table.from_pydict({name: [row[name] for row in rows] for name in columns}, schema=schema)


def write_parquet(table: pa.Table, path: Path) -> None:
    _, pq = arrow_modules()
    path.parent.mkdir(parents=True, exist_ok=True)
    pq.write_table(table, path, compression="zstd")


def config_yaml(config: DatasetConfig) -> str:
    """The configuration in its input format (``load_config`` reads it back)."""
    import yaml

    data = asdict(config)
    for domain in data["domains"]:
        if domain["layouts"] is None:
            del domain["layouts"]
        else:
            domain["layouts"] = {
                name: {"params": list(layout["params"])} if layout["params"] is not None
                else {"space": layout["space"]} if layout["space"] else {}
                for name, layout in domain["layouts"].items()
            }
        domain["heldout"] = [{k: v for k, v in rule.items() if v is not None}
                             for rule in domain["heldout"]]
    data["size_bins"] = list(data["size_bins"])
    # libyaml's dumper when there is one: the same text, twice as fast on the full configuration
    return yaml.dump(data, Dumper=getattr(yaml, "CSafeDumper", yaml.SafeDumper), sort_keys=False)


def _write_text_files(rows: list[dict], out: Path, config: DatasetConfig) -> None:
    write_jsonl(rows, out / ROWS_FILE)
    (out / "config.yaml").write_text(config_yaml(config), encoding="utf-8")


def write_dataset(rows: list[dict], out_dir: str | Path, config: DatasetConfig, *,
                  progress: bool = False) -> Path:
    """Write every file of the layout above; returns the directory.

    ``rows.jsonl`` and ``config.yaml`` (JSON and YAML encoding: Python work) are written by a
    forked process while this one builds the Arrow table and writes the Parquet files.
    """
    from .report import render_report

    out = Path(out_dir)
    arrow_modules()  # a missing extra is refused before any file is written
    out.mkdir(parents=True, exist_ok=True)
    (out / MARKER_FILE).write_text("written by 'planetarium data generate'\n", encoding="utf-8")
    text_files = multiprocessing.get_context("fork").Process(target=_write_text_files,
                                                             args=(rows, out, config))
    text_files.start()
    masks = {name: {split: mask for split, keep in splits.items() if any(mask := [keep(r) for r in rows])}
             for name, splits in split_files(config).items()}
    parquet = [(name, split, mask) for name, splits in masks.items() for split, mask in splits.items()]
    bar = None
    if progress:
        from tqdm import tqdm

        bar = tqdm(total=len(parquet) + 3, desc="writing files", unit="file")

    def done(what: str) -> None:
        if bar is not None:
            bar.set_postfix_str(what)
            bar.update()

    table = rows_table(rows)

    def write(item: tuple[str, str, list[bool]]) -> str:
        name, split, mask = item
        write_parquet(table.filter(mask), out / _file(name, split))
        return _file(name, split)

    with ThreadPoolExecutor(max_workers=2) as pool:  # pyarrow compresses outside the GIL
        for path in pool.map(write, parquet):
            done(path)
    card = f"{card_header(masks)}\n{_CARD}\n{render_report(rows, config.size_bins)}"
    (out / "README.md").write_text(card, encoding="utf-8")
    done("README.md")
    text_files.join()
    if text_files.exitcode != 0:
        raise DatasetWriteError(f"{out}: writing {ROWS_FILE} and config.yaml failed (see above)")
    done(ROWS_FILE)
    done("config.yaml")
    if bar is not None:
        bar.close()
    return out


class DatasetWriteError(PlanetariumError, OSError):
    """A dataset file could not be written."""
