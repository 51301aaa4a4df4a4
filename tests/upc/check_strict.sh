#!/bin/sh
# The translated C of strict.upc: the lines marked "strict" fence, the lines
# marked "relaxed" do not. $1: upcc, $2: strict.upc.
set -e
out=$("$1" -E "$2")
fences() { printf '%s\n' "$out" | grep -F "\"mark $1\"" | grep -c upcemu_fence || true; }
for m in "strict write" "strict read" "strict again"; do
  [ "$(fences "$m")" -ge 1 ] || { echo "no fence on the line marked '$m'"; exit 1; }
done
for m in "relaxed write" "pragma relaxed"; do
  [ "$(fences "$m")" -eq 0 ] || { echo "a fence on the line marked '$m'"; exit 1; }
done
printf '%s\n' "$out" | grep -F '"mark strict write"' | grep -q 'upcemu_fence(); __upcc_t[0-9]*; })' ||
  { echo "the strict write does not fence after"; exit 1; }
echo ok
