"""uv.lock pins every dependency of pyproject.toml (with hashes), and the tools agree on uv."""

import re
import shutil
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent


def uv() -> str:
    found = Path(sys.executable).with_name("uv")
    assert found.exists(), "uv is one of the dev tools: `make .venv/.dev-installed` installs it"
    return str(found)


def check(project: Path) -> subprocess.CompletedProcess:
    # Offline: when the lock agrees with pyproject.toml nothing needs fetching.
    return subprocess.run(
        [uv(), "lock", "--check", "--offline", "--project", str(project)],
        capture_output=True,
        text=True,
        timeout=120,
    )


def test_the_lock_agrees_with_pyproject():
    result = check(ROOT)
    assert result.returncode == 0, f"uv.lock is out of date: run `make lock`\n{result.stderr}"


def test_a_dependency_missing_from_pyproject_is_caught(tmp_path):
    for name in ("pyproject.toml", "uv.lock"):
        shutil.copy(ROOT / name, tmp_path / name)
    pyproject = tmp_path / "pyproject.toml"
    pyproject.write_text(pyproject.read_text().replace('    "orjson>=3.10",\n', ""))
    result = check(tmp_path)
    # Offline uv cannot resolve anew either: whichever it says, the check fails.
    assert result.returncode != 0, result.stderr


def test_every_locked_package_has_hashes():
    lock = tomllib.loads((ROOT / "uv.lock").read_text())
    for package in lock["package"]:
        if package["name"] == "campground":
            continue
        files = package.get("wheels", []) + ([package["sdist"]] if "sdist" in package else [])
        assert files and all(f["hash"].startswith("sha256:") for f in files), package["name"]


def test_make_and_docker_install_the_locked_uv():
    locked = {
        p["name"]: p["version"] for p in tomllib.loads((ROOT / "uv.lock").read_text())["package"]
    }
    make = re.search(r"^UV_VERSION := (\S+)$", (ROOT / "Makefile").read_text(), re.M)
    assert make and make.group(1) == locked["uv"]
    assert f"uv=={locked['uv']}" in (ROOT / "Dockerfile").read_text()
