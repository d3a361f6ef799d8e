#!/usr/bin/env bash
# npm run test:testcontainers: builds the image petstore-mock:<version>, then through Testcontainers
# (Docker, or Podman's Docker-compatible API) runs
#   1. the suite of vitest.testcontainers.config.ts (test/testcontainers/), and
#   2. a consumer project outside the repository: a copy of examples/consumer in a temporary
#      directory that installs the tarball of `npm pack`, type-checks and runs its tests.
# Prints "ok …" or "FAIL …" per check. Without DOCKER_HOST and with Podman, it starts
# `podman system service` on a socket of its own. It stops every container it started, that
# service, removes the image and the temporary files, also on failure or Ctrl-C, and fails if
# anything it created is still there afterwards.
set -euo pipefail
cd "$(dirname "$0")/../.."

SUITE=test:testcontainers
source test/container/lib.sh
version=$(node -p "require('./package.json').version")
tag="petstore-mock:$version"
run_id="petstore-mock-tc-$$"
build_tag="$run_id-build"
run_label="petstore-mock.test-run=$run_id"
work=$(mktemp -d)
service_pid=
socket=
built_id=
# The image already tagged petstore-mock:<version>, if any: re-tagged at the end, never removed.
previous_id=$("$engine" image inspect --format '{{.Id}}' "$tag" 2>/dev/null || true)

# IDs of this run's containers: the suite labels its own; the consumer's run the image built here.
run_containers() {
  "$engine" "${ps_all[@]}" -q --filter "label=$run_label" || return 1
  if [ -n "$built_id" ]; then "$engine" "${ps_all[@]}" -q --filter "ancestor=$built_id" || return 1; fi
}

# What of this run still exists, a "kind name" a line; fails if the engine cannot tell.
leftovers() {
  local ids images
  ids=$(run_containers) || return 1
  images=$("$engine" images -a -q --filter "label=$run_label") || return 1
  if "$engine" image inspect "$build_tag" >/dev/null 2>&1; then images+=$'\n'"$build_tag"; fi
  if [ -n "$built_id" ] && "$engine" image inspect "$built_id" >/dev/null 2>&1; then images+=$'\n'"$built_id"; fi
  {
    sed '/^$/d; s/^/container /' <<<"$ids"
    sed '/^$/d; s/^/image /' <<<"$images"
    if [ -n "$service_pid" ] && kill -0 "$service_pid" 2>/dev/null; then echo "process podman-system-service $service_pid"; fi
    if [ -n "$socket" ] && [ -e "$socket" ]; then echo "socket $socket"; fi
    if [ -e "$work" ]; then echo "directory $work"; fi
  } | sort -u
}

cleanup() {
  local code=$? left ids
  # A second Ctrl-C must not cut the cleanup short.
  trap '' INT TERM HUP
  ids=$(run_containers 2>/dev/null | sort -u || true)
  if [ -n "$ids" ]; then
    # The suite and the example stop what they start: anything here is a bug worth a failure.
    echo "FAIL containers left running by the tests: $(tr '\n' ' ' <<<"$ids")" >&2
    [ "$code" != 0 ] || code=1
    "$engine" rm -f -v $ids >/dev/null 2>&1 || true
  fi
  if [ -n "$built_id" ] && [ "$built_id" != "$previous_id" ]; then "$engine" rmi "$built_id" >/dev/null 2>&1 || true; fi
  "$engine" rmi "$build_tag" $("$engine" images -a -q --filter "label=$run_label" 2>/dev/null) >/dev/null 2>&1 || true
  if [ -n "$previous_id" ] && ! "$engine" image inspect "$tag" >/dev/null 2>&1; then
    "$engine" tag "$previous_id" "$tag" >/dev/null 2>&1 || true
  fi
  if [ -n "$service_pid" ]; then
    kill "$service_pid" 2>/dev/null || true
    wait "$service_pid" 2>/dev/null || true
    rm -f "$socket"
  fi
  rm -rf "$work"
  report_leftovers
  exit "$code"
}
trap cleanup EXIT
repo=$PWD
failures=0
# vitest_lines DIR REPORT PREFIX ARGS…: runs vitest in DIR with a JSON report, prints one ok/FAIL
# line per test and counts a failed run.
vitest_lines() {
  local dir=$1 report=$2 prefix=$3
  shift 3
  (cd "$dir" && NO_COLOR=1 npx vitest run --reporter=default --reporter=json --outputFile.json="$report" "$@") \
    >"$report.log" 2>&1 || { failures=$((failures + 1)); tail -60 "$report.log" >&2; }
  node "$repo/test/testcontainers/vitest-lines.mjs" "$report" "$prefix"
}

# 1. the image the module starts by default (Podman's default OCI format drops HEALTHCHECK)
build_opts=(--label "$run_label"); [ "$engine" = podman ] && build_opts+=(--format docker)
# The build stage is tagged too, so that cleanup can remove it (Podman keeps it otherwise).
"$engine" build "${build_opts[@]}" --target build -t "$build_tag" . >"$work/build.log" 2>&1 &&
  "$engine" build "${build_opts[@]}" --build-arg "VERSION=$version" -t "$tag" . >>"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log" >&2; fail "build $tag"; }
built_id=$("$engine" image inspect --format '{{.Id}}' "$tag")
ok "image $tag built with $engine"

# 2. the Docker API: Podman's, on a socket of this run, unless DOCKER_HOST names one already
if [ -z "${DOCKER_HOST:-}" ] && [ "$engine" = podman ]; then
  socket="/tmp/$run_id.sock"
  podman system service --time=0 "unix://$socket" >"$work/service.log" 2>&1 &
  service_pid=$!
  pings() {
    node -e "require('http').get({ socketPath: process.argv[1], path: '/_ping' },
      (r) => process.exit(r.statusCode === 200 ? 0 : 1)).on('error', () => process.exit(1))" "$socket" 2>/dev/null
  }
  for _ in $(seq 1 100); do pings && break; sleep 0.1; done
  pings || { cat "$work/service.log" >&2; fail "podman system service did not answer on $socket in 10 s"; }
  export DOCKER_HOST="unix://$socket"
  ok "podman system service (pid $service_pid) on $socket"
fi
# Testcontainers' reaper container cannot be pulled here: this script removes what it starts.
export TESTCONTAINERS_RYUK_DISABLED=true
# Inside a container Testcontainers would take the engine's gateway for the host; the ports are
# published on this machine's loopback.
case "${DOCKER_HOST:-unix://}" in unix://*) export TESTCONTAINERS_HOST_OVERRIDE=${TESTCONTAINERS_HOST_OVERRIDE:-127.0.0.1} ;; esac
export PETSTORE_MOCK_TC_RUN=$run_id

# 3. the suite
vitest_lines "$repo" "$work/suite.json" "" --config vitest.testcontainers.config.ts

# 4. a consumer project outside the repository, from the packed tarball
rm -rf dist
npm run build --silent >"$work/pack.log" 2>&1 || { cat "$work/pack.log" >&2; fail "npm run build"; }
tarball=$(npm pack --silent --pack-destination "$work" 2>>"$work/pack.log" | tail -1)
[ -f "$work/$tarball" ] || { cat "$work/pack.log" >&2; fail "npm pack"; }
packed=$(tar -tzf "$work/$tarball")
for entry in client types testcontainers; do
  grep -qx "package/dist/$entry/index.d.ts" <<<"$packed" || fail "$tarball lacks dist/$entry/index.d.ts"
done
ok "npm pack: $tarball with the client, types and testcontainers entry points"
consumer="$work/consumer"
cp -R examples/consumer "$consumer"
dep() { node -p "require('./node_modules/$1/package.json').version"; }
deps=("$work/$tarball" "testcontainers@$(dep testcontainers)" "typescript@$(dep typescript)"
  "vitest@$(dep vitest)" "@types/node@$(dep @types/node)")
(cd "$consumer" && npm install --no-audit --no-fund --prefer-offline --loglevel=error "${deps[@]}") \
  >"$work/install.log" 2>&1 || { cat "$work/install.log" >&2; fail "consumer: npm install ${deps[*]}"; }
ok "consumer: installed $tarball ${deps[*]:1} in a temporary directory"
if (cd "$consumer" && npx tsc --noEmit) >"$work/tsc.log" 2>&1; then
  ok "consumer: type-checks (strict, petstore-mock's declarations checked too)"
else
  cat "$work/tsc.log" >&2
  echo "FAIL consumer: type-check"
  failures=$((failures + 1))
fi
vitest_lines "$consumer" "$work/consumer.json" "consumer: "

[ "$failures" = 0 ] || exit 1
