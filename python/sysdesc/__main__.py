"""python3 -m sysdesc --prefix | --pkgconfigdir: where a pip-installed
sysdesc keeps what C and C++ programs build against (docs/python.md):

    cmake -DCMAKE_PREFIX_PATH="$(python3 -m sysdesc --prefix)" ...
    PKG_CONFIG_PATH="$(python3 -m sysdesc --pkgconfigdir)" pkg-config --cflags --libs sysdesc

A wheel holds them inside the package (include/, lib/, lib/pkgconfig,
lib/cmake); `meson install` puts them under its prefix instead, where
pkg-config and CMake look already."""
import os
import sys

_USAGE = "usage: python3 -m sysdesc --prefix | --pkgconfigdir"


def main(argv):
    if len(argv) != 1 or argv[0] not in ("--prefix", "--pkgconfigdir", "-h", "--help"):
        print(_USAGE, file=sys.stderr)
        return 2
    if argv[0] in ("-h", "--help"):
        print(_USAGE + "\n\n" + __doc__.split("\n\n", 1)[1])
        return 0
    prefix = os.path.dirname(os.path.abspath(__file__))
    pcdir = os.path.join(prefix, "lib", "pkgconfig")
    if not os.path.isfile(os.path.join(pcdir, "sysdesc.pc")):
        print(f"sysdesc: error: no C library in the package ({prefix}): this sysdesc was "
              "installed with meson, whose prefix pkg-config and CMake find "
              "(pkg-config --variable=prefix sysdesc)", file=sys.stderr)
        return 1
    print(prefix if argv[0] == "--prefix" else pcdir)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
