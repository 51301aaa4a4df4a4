"""What the tests of the peer comparisons' table scripts share: a table
script run on made-up result rows."""
import json
import os
import subprocess
import sys
import tempfile


def run_on_rows(script, all_rows):
    """(exit status, stdout) of `script ROWS.jsonl` with all_rows as the rows."""
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as f:
        f.write("\n".join(json.dumps(r) for r in all_rows) + "\n")
    try:
        p = subprocess.run([sys.executable, script, f.name], capture_output=True, text=True)
    finally:
        os.unlink(f.name)
    return p.returncode, p.stdout
