"""Write generated rows to a directory that both Planetarium and ``datasets`` can read offline.

Layout of ``DIR``::

    rows.jsonl            every row, every column (the source of truth; load_rows reads it)
    data/train.parquet    the held-out split's train rows  } ``datasets.load_dataset(DIR)``
    data/test.parquet     the held-out split's test rows   } gives {"train", "test"}
                          (its "excluded" rows, whose problem is also a test problem, are in
                          rows.jsonl only)
    README.md             dataset card: the loader configuration and the split report
    config.yaml           the configuration that produced the rows

Everything is written deterministically (fixed column order, sorted nothing, no timestamps), so
generating twice from one configuration gives byte-identical files.
"""

from __future__ import annotations

import json
from dataclasses import asdict
from pathlib import Path

from ..errors import MissingExtraError
from .config import DatasetConfig
from .generator import COLUMNS

SPLIT_COLUMNS = ("split_random", "split_heldout", "random_fold")
ROWS_FILE = "rows.jsonl"

_CARD_HEADER = """---
configs:
- config_name: default
  data_files:
  - split: train
    path: data/train.parquet
  - split: test
    path: data/test.parquet
---
"""


_ENCODER = json.JSONEncoder(ensure_ascii=False)


def row_json(row: dict) -> str:
    """One row as a JSON line, columns in file order."""
    return _ENCODER.encode({k: row[k] for k in (*COLUMNS, *SPLIT_COLUMNS)})


def write_jsonl(rows: list[dict], path: Path) -> None:
    with open(path, "w", encoding="utf-8", newline="\n") as out:
        out.writelines(row_json(row) + "\n" for row in rows)


def write_parquet(rows: list[dict], path: Path) -> None:
    """Rows as a Parquet file (needs pyarrow, the ``[data]`` extra)."""
    try:
        import pyarrow as pa
        import pyarrow.parquet as pq
    except ImportError as err:
        raise MissingExtraError("pyarrow", "data") from err
    columns = (*COLUMNS, *SPLIT_COLUMNS)
    schema = pa.schema([
        (name, pa.int64() if name in ("id", "num_objects", "init_num_propositions",
                                      "goal_num_propositions", "random_fold")
         else pa.bool_() if name in ("init_is_abstract", "goal_is_abstract", "is_placeholder")
         else pa.string())
        for name in columns
    ])
    table = pa.Table.from_pydict({name: [row[name] for row in rows] for name in columns}, schema=schema)
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
    return yaml.safe_dump(data, sort_keys=False)


def write_dataset(rows: list[dict], out_dir: str | Path, config: DatasetConfig) -> Path:
    """Write every file of the layout above; returns the directory."""
    from .report import render_report

    out = Path(out_dir)
    (out / "data").mkdir(parents=True, exist_ok=True)
    write_jsonl(rows, out / ROWS_FILE)
    for split in ("train", "test"):
        write_parquet([r for r in rows if r["split_heldout"] == split], out / "data" / f"{split}.parquet")
    (out / "config.yaml").write_text(config_yaml(config), encoding="utf-8")
    (out / "README.md").write_text(_CARD_HEADER + "\n" + render_report(rows, config.size_bins),
                                   encoding="utf-8")
    return out


def read_jsonl(path: str | Path) -> list[dict]:
    with open(path, encoding="utf-8") as stream:
        return [json.loads(line) for line in stream if line.strip()]
