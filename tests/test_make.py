"""The Makefile on a machine whose Python is too old: it says so before making anything."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# Python 3.9 as far as a version check can tell; anything else it runs as this Python, so a
# Makefile that did not check would go on to make a venv.
OLD_PYTHON = """#!/bin/sh
if [ "$1" = "-c" ]; then
  exec {real} -c "import sys; sys.version_info = (3, 9, 18, 'final', 0); \\
sys.version = '3.9.18'; exec(sys.argv[1])" "$2"
fi
exec {real} "$@"
"""


def test_make_serve_with_an_older_python_stops_at_once_and_leaves_nothing(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    for name in ("pyproject.toml", "uv.lock"):
        (tmp_path / name).write_text("")
    old = tmp_path / "python3.9"
    old.write_text(OLD_PYTHON.format(real=sys.executable))
    old.chmod(0o755)
    before = sorted(p.name for p in tmp_path.iterdir())
    # Offline, so that a Makefile going on regardless fails fast instead of downloading.
    env = os.environ | {"PIP_NO_INDEX": "1", "UV_OFFLINE": "1"}
    made = subprocess.run(
        ["make", "serve", f"PYTHON={old}"],
        cwd=tmp_path,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    said = made.stdout + made.stderr
    assert made.returncode != 0
    assert "Campground needs Python 3.11 or newer" in said and "is 3.9.18" in said, said
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_the_version_check_lets_this_python_through(tmp_path):
    shutil.copy(ROOT / "Makefile", tmp_path / "Makefile")
    made = subprocess.run(
        ["make", "-n", ".venv/bin/python", f"PYTHON={sys.executable}"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
        timeout=60,
    )
    check = next(line for line in made.stdout.splitlines() if "sys.version_info" in line)
    assert subprocess.run(check, shell=True, timeout=60).returncode == 0
