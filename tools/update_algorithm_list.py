#!/usr/bin/env python3
"""Pastes `upcrun --list-algorithms` between the markers of docs/algorithms.md
(tests/unit/test_coll_registry.cpp fails while the two differ).

usage: tools/update_algorithm_list.py [BUILD_DIR]   (default: build)
"""
import pathlib
import subprocess
import sys

root = pathlib.Path(__file__).resolve().parent.parent
build = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else root / "build"
listing = subprocess.run([str(build / "tools" / "upcrun"), "--list-algorithms"], capture_output=True, text=True,
                         check=True).stdout
doc = root / "docs" / "algorithms.md"
text = doc.read_text()
begin = text.index("<!-- BEGIN upcrun --list-algorithms -->")
end = text.index("<!-- END upcrun --list-algorithms -->")
first = text.index("\n", begin) + 1
fenced = text[first:end].startswith("```")
body = "```\n" + listing + "```\n" if fenced else listing
doc.write_text(text[:first] + body + text[end:])
