"""The stubs and docstrings cover the API: every public name of sysdesc is in
__init__.pyi, and help() has text for every entry point and method."""

import ast
import inspect
import os

import sysdesc


def stub_names():
    path = os.path.join(os.path.dirname(sysdesc.__file__), "__init__.pyi")
    tree = ast.parse(open(path).read())
    names, members = set(), {}
    for node in tree.body:
        if isinstance(node, (ast.FunctionDef, ast.ClassDef)):
            names.add(node.name)
        if isinstance(node, ast.ClassDef):
            members[node.name] = {n.name for n in node.body if isinstance(n, ast.FunctionDef)}
        elif isinstance(node, (ast.AnnAssign, ast.Assign)):
            targets = [node.target] if isinstance(node, ast.AnnAssign) else node.targets
            names.update(t.id for t in targets if isinstance(t, ast.Name))
    return names, members


def test_every_public_name_is_in_the_stub():
    names, _ = stub_names()
    assert set(sysdesc.__all__) - names == set()


def test_every_public_method_is_in_the_stub():
    _, members = stub_names()
    for cls in (sysdesc.Spec, sysdesc.Map, sysdesc.Path, sysdesc.Layout, sysdesc.System):
        public = {n for n in dir(cls) if not n.startswith("_")} - {"count", "index"}
        inherited = set().union(*(members.get(b.__name__, set()) for b in cls.__mro__[1:]))
        props = {n for n in public if isinstance(inspect.getattr_static(cls, n, None),
                                                  (property, type(sysdesc.Map.kind)))}
        missing = public - members.get(cls.__name__, set()) - inherited - props
        missing -= {"keys", "items", "values"}  # collections.abc.Mapping's
        assert missing == set(), (cls.__name__, missing)


def test_docstrings():
    for name in ("host", "load", "parse", "catalog", "catalog_names", "compose", "check"):
        assert len(inspect.getdoc(getattr(sysdesc, name)) or "") > 40, name
    for cls in (sysdesc.Spec, sysdesc.Path, sysdesc.Layout):
        assert inspect.getdoc(cls)
        for n, m in vars(cls).items():
            if not n.startswith("_") and callable(m):
                assert inspect.getdoc(m), f"{cls.__name__}.{n}"
    assert "query" in inspect.getdoc(sysdesc.Map.query)


def test_c_methods_have_signatures():
    """help() and IDEs read the C methods' signatures (__text_signature__)."""
    methods = [sysdesc.Map.get, sysdesc.Map.query, sysdesc.Map.path, sysdesc.Path.get,
               sysdesc.Layout.size, sysdesc.Layout.size_in_bits, sysdesc.Layout.abi_alignment,
               sysdesc.Layout.preferred_alignment, sysdesc.Layout.index_bitwidth,
               sysdesc.Layout.property, sysdesc.System.print, sysdesc.System.check,
               sysdesc.System.layout, sysdesc.System.export]
    for m in methods:
        params = list(inspect.signature(m).parameters)
        assert params[0] == "self" and len(params) >= 2, m.__name__


def test_the_namespace_is_the_api():
    """dir(sysdesc) lists the API and nothing the module only uses itself
    (os, typing's names): every public name there is in __all__."""
    public = {n for n in dir(sysdesc) if not n.startswith("_")}
    assert public == set(sysdesc.__all__)
