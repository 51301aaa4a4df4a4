# Sourced by the hosts tests (netns_hosts_test.sh, pretend_hosts_test.sh).
# expect_run NAME STATUS TEXT COMMAND...: runs COMMAND, prints its output, and
# sets failed=1 unless it ends with STATUS and says TEXT; its output stays in
# last_out for further checks.
failed=0
expect_run() {
  name=$1 want=$2 text=$3
  shift 3
  out=$("$@" 2>&1); st=$?
  echo "--- $name (status $st)"
  echo "$out"
  if [ "$st" != "$want" ] || ! echo "$out" | grep -qF -- "$text"; then
    echo "FAILED: $name: wanted status $want and \"$text\""
    failed=1
  fi
  last_out=$out
}
