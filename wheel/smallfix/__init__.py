"""The `smallfix` command of the wheel: runs the native binary in this package's bin/.

A Python entry point rather than the binary itself in the venv's bin/: the binary finds its
templates, validator scripts and bundled libraries relative to where it lies
(site-packages/smallfix/), which a copy in the scripts folder would lose. execv replaces this
process, so signals, exit statuses and the terminal reach the binary unchanged.
"""

import os
import sys

BINARY = os.path.join(os.path.dirname(os.path.abspath(__file__)), "bin", "smallfix")


def main():
    os.execv(BINARY, ["smallfix", *sys.argv[1:]])
