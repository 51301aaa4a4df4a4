#!/bin/sh
# NPB-UPC's IS alone, class S: run_npb.sh --bench is (kept for the command
# that docs and older notes give).
# usage: run_npb_is.sh DIR [THREADS...]   (default THREADS: 1 2 4)
exec "$(cd "$(dirname "$0")" && pwd)/run_npb.sh" --bench is --class S "$@"
