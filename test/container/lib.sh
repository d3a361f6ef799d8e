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
