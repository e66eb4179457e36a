"""The published distribution is ``planetarium-pddl`` (issue 31.1).

PyPI's ``planetarium`` is an unrelated project: an install line that names it installs that
project.  So no install line or hint in the repository may name the bare ``planetarium``
distribution, and the wheel and sdist the project builds carry every module and data file and
install into a fresh environment where ``planetarium demo`` runs.
"""

from __future__ import annotations

import json
import re
import subprocess
import sys
import tarfile
import zipfile
from pathlib import Path

import pytest

from planetarium.errors import DISTRIBUTION, MissingExtraError, install_line

ROOT = Path(__file__).resolve().parents[1]

#: ``pip install`` (also ``pip3``, ``python -m pip``, ``uv pip``) and its arguments, up to the
#: end of the shell command (``&&``, ``;``, ``|``, a comment) or of the Markdown code span.
_INSTALL = re.compile(r"\bpip3?\s+install\b(?P<rest>[^\n;&|#`]*)")
#: A requirement naming the bare distribution: planetarium, planetarium[x], planetarium==1, ...
_BARE = re.compile(r"^planetarium(\[[^\]]*\])?([<>=!~;@ ].*)?$", re.IGNORECASE)


def _repository_files() -> list[Path]:
    """Every file git tracks or would track (untracked files outside .gitignore included)."""
    listed = subprocess.run(["git", "ls-files", "-z", "--cached", "--others", "--exclude-standard"],
                            cwd=ROOT, capture_output=True, check=True).stdout.decode()
    return sorted({ROOT / name for name in listed.split("\0") if name and (ROOT / name).is_file()})


def _bare_requirements(line: str) -> list[str]:
    """The requirements of one ``pip install`` line that name the bare distribution."""
    found = []
    for match in _INSTALL.finditer(line):
        for token in match.group("rest").split():
            token = token.strip("'\"`,;()")
            if _BARE.match(token):
                found.append(token)
    return found


def test_the_scanner_finds_the_forms_an_install_line_takes():
    """The check below is only as good as this reader of install lines."""
    assert _bare_requirements("pip install 'planetarium[harness]'") == ["planetarium[harness]"]
    assert _bare_requirements("`pip install planetarium[scenes]`: networkx") == ["planetarium[scenes]"]
    assert _bare_requirements("python -m pip install -U planetarium==0.1.0") == ["planetarium==0.1.0"]
    assert _bare_requirements('f"pip install \'planetarium[{extra}]\'"') == ["planetarium[{extra}]"]
    assert _bare_requirements("pip install planetarium && planetarium demo") == ["planetarium"]
    for fine in ("pip install 'planetarium-pddl[harness]'", "pip install '.[harness]'",
                 "pip install . && planetarium demo", "pip install -e '.[all,dev]'",
                 "planetarium grade a b  # pip is not involved"):
        assert _bare_requirements(fine) == [], fine


def test_no_install_line_or_hint_names_the_bare_planetarium_distribution():
    offenders = []
    for path in _repository_files():
        if path == Path(__file__).resolve():
            continue  # the scanner's own examples above
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue  # binary files hold no install lines
        for number, line in enumerate(text.splitlines(), 1):
            for token in _bare_requirements(line):
                offenders.append(f"{path.relative_to(ROOT)}:{number}: {token}")
    assert offenders == [], "install lines naming PyPI's unrelated 'planetarium':\n" + "\n".join(offenders)


def test_pyproject_names_the_distribution_and_its_extras_refer_to_it():
    tomllib = pytest.importorskip("tomllib")  # Python 3.11+
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["name"] == DISTRIBUTION == "planetarium-pddl"
    assert project["scripts"] == {"planetarium": "planetarium.cli:main"}  # the command stays
    requirements = [req for reqs in project["optional-dependencies"].values() for req in reqs]
    requirements += project["dependencies"]
    own = [req for req in requirements if req.lower().startswith("planetarium")]
    assert own and all(req.startswith(f"{DISTRIBUTION}[") for req in own), own


def test_a_missing_extra_names_the_new_distribution():
    assert install_line("acp") == "pip install 'planetarium-pddl[acp]'"
    assert str(MissingExtraError("lark", "acp")).endswith(": pip install 'planetarium-pddl[acp]'")


def _source_tree_copy(dest: Path) -> Path:
    """The files a fresh clone of this working tree would have (no build leftovers)."""
    for path in _repository_files():
        target = dest / path.relative_to(ROOT)
        target.parent.mkdir(parents=True, exist_ok=True)
        target.write_bytes(path.read_bytes())
    return dest


def _package_files() -> set[str]:
    """What both archives must carry: every file of the package, modules and data alike."""
    return {str(path.relative_to(ROOT)) for path in _repository_files()
            if path.relative_to(ROOT).parts[0] == "planetarium"}


@pytest.mark.slow
def test_wheel_and_sdist_build_pass_twine_check_and_install_into_a_fresh_venv(tmp_path):
    """``python -m build`` then ``twine check dist/*`` (README, "Publishing"), the contents
    compared with the package's files, and the wheel and the sdist each installed into a new
    virtual environment where the ``planetarium`` command runs the demo."""
    pytest.importorskip("build")
    pytest.importorskip("twine")
    source = _source_tree_copy(tmp_path / "src")
    dist = tmp_path / "dist"
    subprocess.run([sys.executable, "-m", "build", "--outdir", str(dist), str(source)],
                   check=True, capture_output=True, timeout=600)
    wheel, = dist.glob("planetarium_pddl-*.whl")
    sdist, = dist.glob("planetarium_pddl-*.tar.gz")
    checked = subprocess.run([sys.executable, "-m", "twine", "check", "--strict", str(wheel),
                              str(sdist)], capture_output=True, text=True, timeout=300)
    assert checked.returncode == 0, checked.stdout + checked.stderr

    expected = _package_files()
    in_wheel = set(zipfile.ZipFile(wheel).namelist())
    assert expected - in_wheel == set(), "missing from the wheel"
    with tarfile.open(sdist) as archive:
        top = archive.getnames()[0].split("/")[0]
        in_sdist = {name.removeprefix(top + "/") for name in archive.getnames()}
    assert expected - in_sdist == set(), "missing from the sdist"
    assert {"README.md", "pyproject.toml"} <= in_sdist
    metadata = zipfile.ZipFile(wheel).read(
        next(n for n in in_wheel if n.endswith(".dist-info/METADATA"))).decode()
    assert "Name: planetarium-pddl" in metadata.splitlines()
    assert {"LICENSE", "planetarium/dataset/published/LICENSE"} <= in_sdist
    assert any(n.endswith(".dist-info/licenses/LICENSE") for n in in_wheel)

    checkout_demo = subprocess.run([sys.executable, "-m", "planetarium.cli", "demo"], cwd=ROOT,
                                   capture_output=True, text=True, timeout=300, check=True)
    assert "correct" in checkout_demo.stdout
    for archive_path in (wheel, sdist):
        venv = tmp_path / f"venv-{archive_path.suffix.strip('.')}"
        subprocess.run([sys.executable, "-m", "venv", str(venv)], check=True, timeout=300)
        installed = subprocess.run([str(venv / "bin" / "pip"), "install", "--quiet", str(archive_path)],
                                   capture_output=True, text=True, timeout=600)
        assert installed.returncode == 0, installed.stderr[-3000:]
        demo = subprocess.run([str(venv / "bin" / "planetarium"), "demo"], capture_output=True,
                              text=True, timeout=300, cwd=tmp_path)
        assert demo.returncode == 0, demo.stderr
        assert demo.stdout == checkout_demo.stdout
        read = subprocess.run([str(venv / "bin" / "python"), "-c", _READ_METADATA],
                              capture_output=True, text=True, timeout=300, cwd=tmp_path)
        assert read.returncode == 0, read.stderr
        check_registry_metadata(json.loads(read.stdout))


#: Prints the installed distribution's metadata as JSON (field -> every value), the
#: description under "Description".
_READ_METADATA = ("import importlib.metadata as m, json\n"
                  "d = m.metadata('planetarium-pddl')\n"
                  "print(json.dumps({k: d.get_all(k) for k in set(d.keys())}"
                  " | {'Description': d.get_payload()}))\n")


def check_registry_metadata(fields: dict[str, list[str]]) -> None:
    """What a package index shows: the license and its files, the project's URLs, authors and
    classifiers, a Markdown description whose images and links resolve off the repository."""
    tomllib = pytest.importorskip("tomllib")
    urls = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]["urls"]
    assert fields["License-Expression"] == ["BSD-3-Clause"]
    assert sorted(fields["License-File"]) == ["LICENSE", "planetarium/dataset/published/LICENSE"]
    assert sorted(fields["Project-URL"]) == sorted(f"{k}, {v}" for k, v in urls.items())
    assert fields["Author"] or fields["Author-email"]
    classifiers = fields["Classifier"]
    assert "Intended Audience :: Science/Research" in classifiers
    assert {f"Programming Language :: Python :: 3.{v}" for v in (10, 11, 12)} <= set(classifiers)
    assert fields["Description-Content-Type"] == ["text/markdown"]
    check_description(fields["Description"], urls["Repository"])


def check_description(text: str, repository: str) -> None:
    """Every image of the long description is an absolute link into the repository, naming a
    file the repository has; the quick start installs the published distribution."""
    images = re.findall(r"!\[[^\]]*\]\(([^)\s]+)", text)
    assert images, "the description shows the viewer"
    prefix = f"{repository}/raw/main/"
    for link in images:
        assert link.startswith(prefix), link
        assert (ROOT / link.removeprefix(prefix)).is_file(), link
    quick = text[text.index("## Quick start"):]
    assert quick.index("pip install planetarium-pddl") < quick.index("pip install .")


def test_the_readme_reads_right_on_a_package_index():
    """The README is the long description: checked here without a build (the slow test above
    checks the built metadata)."""
    tomllib = pytest.importorskip("tomllib")
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    assert project["readme"] == "README.md" and project["license"] == "BSD-3-Clause"
    assert "BSD 3-Clause License" in (ROOT / "LICENSE").read_text()
    check_description((ROOT / "README.md").read_text(), project["urls"]["Repository"])
