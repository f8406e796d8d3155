"""Shared paths and the command-line binary the tests compare against."""

import os
import pathlib
import subprocess

import pytest

ROOT = pathlib.Path(__file__).resolve().parents[2]
FIXTURES = ROOT / "fixtures"


@pytest.fixture(scope="session")
def urlint_bin() -> pathlib.Path:
    """The `urlint` binary (URLINT_BIN, else target/debug/urlint)."""
    path = pathlib.Path(os.environ.get("URLINT_BIN", ROOT / "target" / "debug" / "urlint"))
    if not path.is_file():
        pytest.skip(f"no urlint binary at {path}: build it with `cargo build`")
    return path


def run_cli(binary: pathlib.Path, *args: str) -> subprocess.CompletedProcess[str]:
    """Run the CLI from the repository root, isolated from any config file."""
    return subprocess.run(
        [str(binary), *args], cwd=ROOT, capture_output=True, text=True, check=False
    )
