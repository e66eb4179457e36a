"""Planetarium's plug-ins written from outside: a benchmark (:mod:`.arith`), a domain
(:mod:`.switches`) and a reward scheme (:mod:`.schemes`), registered by this package's entry
points (examples/plugin/pyproject.toml) and nothing else."""
