# Shared by the container suites (test/container/test-container.sh, test/testcontainers/run.sh):
# source it after `set -euo pipefail` with SUITE set to the suite's name.

# The engine: CONTAINER_ENGINE, else a working docker, else podman.
engine=${CONTAINER_ENGINE:-}
if [ -z "$engine" ]; then
  if command -v docker >/dev/null 2>&1 && docker info >/dev/null 2>&1; then engine=docker
  elif command -v podman >/dev/null 2>&1; then engine=podman
  else echo "$SUITE: neither a working docker nor podman; set CONTAINER_ENGINE" >&2; exit 1; fi
fi
# An interrupted Podman build leaves (labelled) buildah working containers, which only --external lists.
ps_all=(ps -a); [ "$engine" = podman ] && ps_all+=(--external)

fail() { echo "FAIL $*" >&2; exit 1; }
ok() { echo "ok   $*"; }

# wait_healthy URL: waits until URL/__admin/health answers 2xx (bounded against a hang, room for a busy
# machine: 30 s); non-zero if it never does.
wait_healthy() {
  local _
  for _ in $(seq 1 300); do
    node -e "fetch('$1/__admin/health').then(r=>process.exit(r.ok?0:1),()=>process.exit(1))" && return 0
    sleep 0.1
  done
  return 1
}

# free_port: a TCP port of 127.0.0.1 free a moment ago (for engines that need a fixed host port).
free_port() {
  node -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"
}

# swap FILE COUNT PATTERN REPLACEMENT: sed's s|PATTERN|REPLACEMENT| on FILE (BRE), failing unless
# PATTERN matches exactly COUNT lines: a recipe that changed must not be run half-swapped.
swap() {
  local file=$1 count=$2 pattern=$3 replacement=$4 n
  n=$(grep -c -- "$pattern" "$file" || true)
  [ "$n" = "$count" ] || fail "$(basename "$file"): $n lines match $pattern, expected $count"
  sed -i "s|$pattern|$replacement|" "$file"
}

# report_leftovers: the last step of a cleanup. Calls the suite's `leftovers` (what of this run
# still exists, a "kind name" a line; non-zero when the engine cannot tell) and turns anything
# left into a failure of the caller's `code`; then says how the suite ended.
report_leftovers() {
  local left
  if ! left=$(leftovers 2>/dev/null); then
    echo "FAIL $engine could not list what is left of this run; check by hand: label $run_label" >&2
    [ "$code" != 0 ] || code=1
  elif [ -n "$left" ]; then
    echo "FAIL cleanup left these behind:" >&2
    sed 's/^/  /' <<<"$left" >&2
    [ "$code" != 0 ] || code=1
  else
    echo "ok   nothing of this run is left"
  fi
  [ "$code" = 0 ] && echo "$SUITE: all checks passed" || echo "$SUITE: FAILED (exit code $code)" >&2
}

# Leave through the EXIT trap (the suite's cleanup), with the usual 128 + signal number.
trap 'exit 129' HUP
trap 'exit 130' INT
trap 'exit 143' TERM
