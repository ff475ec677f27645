"""Numbers whatever the locale (docs/reliability.md, "numbers"): a program
that calls setlocale(LC_ALL, "") under a decimal-comma locale reads and
writes every number as in the "C" locale.  The de_DE locale is built for the
test with localedef (Debian's `locales`), in a temporary LOCPATH; the checks
run in a child Python that switched to it, against the same operations in
this process (the "C" locale) as the peer."""

import json
import os
import shutil
import subprocess
import sys

import pytest

CHILD = r'''
import json, locale, sys
locale.setlocale(locale.LC_ALL, "de_DE.UTF-8")
assert locale.localeconv()["decimal_point"] == ",", "the locale's radix is not a comma"
import sysdesc
out = {}
s = sysdesc.parse(sys.argv[1], source="t.yaml", check=False)
out["values"] = [s["CPU"][k] for k in ("a", "b", "c", "d")]
out["floats"] = list(s["CPU"]["e"])
out["yaml"] = s.to_yaml()
out["json"] = s.to_json()
out["typed"] = s.to_json(typed=True)
out["mlir"] = s.to_mlir()
h = sysdesc.catalog("nvidia/h100-sxm")
out["h100"] = h.to_dict()
out["h100_yaml"] = h.to_yaml()
print(json.dumps(out))
'''

YAML = """CPU:
  a: 1.5e300
  b: 0.1234567890123456789
  c: 2.5
  d: -7.25e-5
  e: !array:f64 [0.5, 1.25e10]
"""


@pytest.fixture(scope="module")
def locpath(tmp_path_factory):
    if not shutil.which("localedef") or not os.path.exists("/usr/share/i18n/locales/de_DE"):
        pytest.skip("no localedef or de_DE locale source (Debian's locales)")
    d = tmp_path_factory.mktemp("locale")
    r = subprocess.run(["localedef", "-i", "de_DE", "-f", "UTF-8", str(d / "de_DE.UTF-8")],
                       capture_output=True, text=True)
    if r.returncode not in (0, 1) or not (d / "de_DE.UTF-8").exists():
        pytest.skip("localedef could not build de_DE.UTF-8: " + r.stderr.strip())
    return str(d)


def test_numbers_under_a_decimal_comma_locale(locpath):
    import sysdesc
    env = dict(os.environ, LOCPATH=locpath, LC_ALL="de_DE.UTF-8")
    r = subprocess.run([sys.executable, "-c", CHILD, YAML], capture_output=True, text=True, env=env)
    assert r.returncode == 0, r.stderr
    got = json.loads(r.stdout)
    # The peer: the same operations here, in the "C" locale.
    s = sysdesc.parse(YAML, source="t.yaml", check=False)
    assert got["values"] == [s["CPU"][k] for k in ("a", "b", "c", "d")]
    assert got["values"] == [1.5e300, 0.1234567890123456789, 2.5, -7.25e-5]
    assert got["floats"] == [0.5, 1.25e10]
    for fmt in ("yaml", "json", "typed", "mlir"):
        want = {"yaml": s.to_yaml, "json": s.to_json, "mlir": s.to_mlir,
                "typed": lambda: s.to_json(typed=True)}[fmt]()
        assert got[fmt] == want, fmt
    json.loads(got["json"])
    h = sysdesc.catalog("nvidia/h100-sxm")
    assert got["h100"] == h.to_dict()
    assert got["h100_yaml"] == h.to_yaml()
    # what the child wrote reads back to the same values
    assert sysdesc.parse(got["yaml"], source="back.yaml", check=False)["CPU"]["b"] == 0.1234567890123456789
