"""The type stubs name what the package has: every public name they declare
imports (a name a stub declares but the module lacks type-checks, then
fails on import). `.ci/python` runs mypy's stubtest for the signatures."""

import ast
import pathlib

import pytest
import urlint

STUBS = pathlib.Path(urlint.__file__).with_name("__init__.pyi")


def stub_names() -> list[str]:
    """The names the stubs declare at module level, in order."""
    names = []
    for node in ast.parse(STUBS.read_text()).body:
        if isinstance(node, (ast.ClassDef, ast.FunctionDef)):
            names.append(node.name)
        elif isinstance(node, ast.AnnAssign) and isinstance(node.target, ast.Name):
            names.append(node.target.id)
        elif isinstance(node, ast.Assign):
            names.extend(target.id for target in node.targets if isinstance(target, ast.Name))
    return names


@pytest.mark.parametrize("name", [n for n in stub_names() if not n.startswith("_") or n == "__version__"])
def test_every_public_name_in_the_stubs_imports(name):
    namespace: dict = {}
    exec(f"from urlint import {name}", namespace)
    assert namespace[name] is getattr(urlint, name)


def test_the_stubs_list_what_the_package_exports():
    (stub_all,) = [
        ast.literal_eval(node.value)
        for node in ast.parse(STUBS.read_text()).body
        if isinstance(node, ast.Assign) and [getattr(t, "id", None) for t in node.targets] == ["__all__"]
    ]
    assert stub_all == urlint.__all__
    public = {n for n in stub_names() if not n.startswith("_")} | {"__version__"}
    assert public == set(urlint.__all__)
