#!/usr/bin/env bash
# Builds the image and proves it: read-only run, smoke suite over the socket, uid 1000,
# health check, stop with exit code 0 (idle and under load: busy and idle connections closed while a
# request in flight still waits, then it is answered: stop-probe.mjs), size budget; the hostile
# battery under the Kubernetes manifest's memory limit (memory-limit.sh); two replicas of
# it on one redis-server (redis-replicas.sh); then runs the compose and Kubernetes recipes of
# docs/recipes with it (recipe-compose.sh, recipe-kubernetes.sh).
# Works with Docker or Podman: CONTAINER_ENGINE chooses, otherwise whichever works.
# Removes every container, pod, network, secret, image and file it created, also on failure or Ctrl-C, and fails
# if any of them is still there afterwards.
set -euo pipefail
cd "$(dirname "$0")/../.."

SUITE=test:container
source test/container/lib.sh
base_image=$(sed -n 's/^FROM \([^ ]*\) AS build$/\1/p' Dockerfile)
budget_bytes=$((20 * 1024 * 1024))
tag="petstore-mock:test-$$"
run_id="petstore-mock-test-$$"
# On every container and image of this run, so that cleanup and the final check find them
# even when a name was never recorded (say, interrupted between `run` and the bookkeeping).
run_label="petstore-mock.test-run=$run_id"
work=$(mktemp -d)
containers=()
volumes=()
# Made by the recipes' runs (names of this run, recorded before they are created).
pods=()
compose_projects=()
networks=()
secrets=()
recipe_images=()
probe_pid=
# The redis-server of redis-replicas.sh, while it runs.
redis_pid=

# Names of this run's containers: recorded ones plus any with its label or name prefix.
run_containers() {
  {
    printf '%s\n' "${containers[@]}"
    "$engine" "${ps_all[@]}" --filter "label=$run_label" --format '{{.Names}}' || true
    "$engine" "${ps_all[@]}" --filter "name=$run_id-" --format '{{.Names}}' || true
    compose_containers || true
  } 2>/dev/null | sed '/^$/d' | sort -u
}

# Containers of this run's compose projects (the recipe script names its jobs' containers itself).
compose_containers() {
  local p
  for p in "${compose_projects[@]}"; do
    "$engine" "${ps_all[@]}" --filter "label=com.docker.compose.project=$p" --format '{{.Names}}' || return 1
  done
}

# What of this run still exists, a "kind name" a line; fails if the engine cannot tell.
leftovers() {
  local names images vols i v p n s others=
  names=$("$engine" "${ps_all[@]}" --filter "label=$run_label" --format '{{.Names}}' &&
    "$engine" "${ps_all[@]}" --filter "name=$run_id-" --format '{{.Names}}' && compose_containers) || return 1
  images=$("$engine" images -a -q --filter "label=$run_label") || return 1
  vols=$("$engine" volume ls -q --filter "label=$run_label") || return 1
  for i in "$tag" "$tag-build" "${recipe_images[@]}"; do
    if "$engine" image inspect "$i" >/dev/null 2>&1; then images+=$'\n'"$i"; fi
  done
  for v in "${volumes[@]}"; do
    if "$engine" volume inspect "$v" >/dev/null 2>&1; then vols+=$'\n'"$v"; fi
  done
  for p in "${pods[@]}"; do
    if "$engine" pod exists "$p" 2>/dev/null; then others+="pod $p"$'\n'; fi
  done
  for n in "${networks[@]}"; do
    if "$engine" network inspect "$n" >/dev/null 2>&1; then others+="network $n"$'\n'; fi
  done
  for s in "${secrets[@]}"; do
    if "$engine" secret inspect "$s" >/dev/null 2>&1; then others+="secret $s"$'\n'; fi
  done
  {
    printf '%s' "$others"
    sed '/^$/d; s/^/container /' <<<"$names"
    sed '/^$/d; s/^/image /' <<<"$images"
    sed '/^$/d; s/^/volume /' <<<"$vols"
  } | sort -u
}

cleanup() {
  local code=$? c v p n s i
  # A second Ctrl-C must not cut the cleanup short.
  trap '' INT TERM HUP
  if [ -n "$probe_pid" ]; then kill "$probe_pid" 2>/dev/null || true; wait "$probe_pid" 2>/dev/null || true; fi
  if [ -n "$redis_pid" ]; then kill -KILL "$redis_pid" 2>/dev/null || true; wait "$redis_pid" 2>/dev/null || true; fi
  for p in "${pods[@]}"; do "$engine" pod rm -f "$p" >/dev/null 2>&1 || true; done
  for c in $(run_containers); do
    # None expected (the image declares no VOLUME), but note any anonymous volume, to prove it gone.
    mapfile -t -O "${#volumes[@]}" volumes < <("$engine" inspect --format \
      '{{range .Mounts}}{{if eq .Type "volume"}}{{println .Name}}{{end}}{{end}}' "$c" 2>/dev/null | sed '/^$/d')
    "$engine" rm -f -v "$c" >/dev/null 2>&1 || true
  done
  for n in "${networks[@]}"; do "$engine" network rm -f "$n" >/dev/null 2>&1 || true; done
  for s in "${secrets[@]}"; do "$engine" secret rm "$s" >/dev/null 2>&1 || true; done
  # The recipes' images are children of $tag: removed first.
  for i in "${recipe_images[@]}"; do "$engine" rmi -f "$i" >/dev/null 2>&1 || true; done
  "$engine" rmi -f "$tag" "$tag-build" $("$engine" images -a -q --filter "label=$run_label" 2>/dev/null) \
    >/dev/null 2>&1 || true
  for v in "${volumes[@]}"; do "$engine" volume rm -f "$v" >/dev/null 2>&1 || true; done
  rm -rf "$work"
  report_leftovers
  exit "$code"
}
trap cleanup EXIT

# 1. build (Podman's default OCI format drops HEALTHCHECK; the docker format keeps it)
build_opts=(--label "$run_label"); [ "$engine" = podman ] && build_opts+=(--format docker)
# The build stage is tagged too, so that cleanup can remove it (Podman keeps it otherwise).
version=$(node -p "require('./package.json').version")
"$engine" build "${build_opts[@]}" --target build -t "$tag-build" . >"$work/build.log" 2>&1 &&
  "$engine" build "${build_opts[@]}" --build-arg "VERSION=$version" -t "$tag" . >>"$work/build.log" 2>&1 ||
  { tail -30 "$work/build.log" >&2; fail "build"; }
label=$("$engine" image inspect --format '{{index .Config.Labels "org.opencontainers.image.version"}}' "$tag")
[ "$label" = "$version" ] || fail "image version label $label, package.json $version"
ok "image built with $engine"

# data mounted the way docs/reference/container.md tells users to
printf 'pets:\n  - { id: 1, name: Mounted, categoryId: 1, status: available }\n  - { id: 7, name: Faulty, categoryId: 2 }\n' >"$work/pets.yaml"
printf -- '- { operation: getPet, petId: 7, status: 503 }\n' >"$work/faults.yaml"
chmod 0644 "$work"/*.yaml

# Starts a read-only container and sets url to its published base URL once it answers health.
# Not meant for $(...): the name must be recorded in this shell for cleanup.
start() {
  local name=$1
  containers+=("$name")
  "$engine" run -d --read-only --name "$name" --label "$run_label" -p 127.0.0.1::4010 \
    -v "$work/pets.yaml:/data/pets.yaml:ro" -v "$work/faults.yaml:/data/faults.yaml:ro" \
    -e PETSTORE_MOCK_FIXTURES=/data/pets.yaml -e PETSTORE_MOCK_FAULTS=/data/faults.yaml -e PETSTORE_MOCK_API_KEYS=smoke-key \
    "$tag" >/dev/null
  local port
  port=$("$engine" port "$name" 4010 | head -1 | sed 's/.*://')
  url="http://127.0.0.1:$port"
  wait_healthy "$url" && return 0
  "$engine" logs "$name" >&2 || true
  fail "$name did not become healthy in 30 s"
}

# Stops a container (SIGTERM; SIGKILL after 30 s, which would leave exit code 137); fails unless it
# exited 0: the server stopped by itself on the signal. How long it took is reported, not judged (a
# busy machine makes any stop slow): the order of events under load is stop-probe.mjs's to check.
stop_gracefully() {
  local name=$1 label=$2
  local t0 t1 code
  t0=$(date +%s%N)
  "$engine" stop -t 30 "$name" >/dev/null
  t1=$(date +%s%N)
  code=$("$engine" inspect --format '{{.State.ExitCode}}' "$name")
  [ "$code" = 0 ] || fail "stop $label: exit code $code after $(((t1 - t0) / 1000000)) ms"
  ok "stop $label: exit code 0 (after $(((t1 - t0) / 1000000)) ms)"
}

# 2-3. read-only run, published port, health, smoke suite
start "$run_id-a"
ok "read-only container healthy at $url"
node test/container/smoke.mjs "$url" || fail "smoke suite"

# 4. unprivileged, health check command inside, stop when idle
uid=$("$engine" exec "$run_id-a" node -e "console.log(require('fs').statSync('/proc/1').uid)")
[ "$uid" = 1000 ] || fail "process runs as uid $uid, not 1000"
ok "server process runs as uid 1000"
health_cmd=$("$engine" image inspect --format '{{json .Config.Healthcheck.Test}}' "$tag")
[ "$health_cmd" != null ] || fail "image has no HEALTHCHECK"
node -e "const t=JSON.parse(process.argv[1]); process.exit(t[0]==='CMD'&&t[1]==='node'?0:1)" "$health_cmd" || fail "HEALTHCHECK is not exec-form node: $health_cmd"
mapfile -t health_argv < <(node -e "for (const a of JSON.parse(process.argv[1]).slice(1)) console.log(a)" "$health_cmd")
"$engine" exec "$run_id-a" "${health_argv[@]}" || fail "health check command failed inside the container"
ok "HEALTHCHECK (exec-form node) succeeds inside the container"
stop_gracefully "$run_id-a" "when idle"

# ... and under load: stop-probe.mjs says "ready" once its connections are busy and idle and its
# request is in flight, then checks the order in which they end (its "ok"/"FAIL" lines).
start "$run_id-b"
node test/container/stop-probe.mjs "$url" >"$work/stop-probe.log" 2>&1 &
probe_pid=$!
for _ in $(seq 1 300); do
  grep -q '^ready$' "$work/stop-probe.log" && break
  kill -0 "$probe_pid" 2>/dev/null || break
  sleep 0.1
done
grep -q '^ready$' "$work/stop-probe.log" || { cat "$work/stop-probe.log" >&2; fail "stop probe: not ready in 30 s"; }
stop_gracefully "$run_id-b" "under load"
probe_code=0
wait "$probe_pid" || probe_code=$?
probe_pid=
grep -v '^ready$' "$work/stop-probe.log" || true
[ "$probe_code" = 0 ] || fail "stop under load: the order of events (above)"

# 5. size against the base image
size=$("$engine" image inspect --format '{{.Size}}' "$tag")
base_size=$("$engine" image inspect --format '{{.Size}}' "$base_image")
added=$((size - base_size))
printf 'image %s bytes, base %s %s bytes, added %s bytes (%s MiB; budget 20 MiB)\n' \
  "$size" "$base_image" "$base_size" "$added" "$(node -e "console.log(($added/1048576).toFixed(1))")"
[ "$added" -le "$budget_bytes" ] || fail "the image adds more than 20 MiB to the base"
ok "size within budget"

# 6. under the memory limit of deploy/kubernetes/ (--memory), the hostile battery: it keeps serving
source test/container/memory-limit.sh

# 7. two replicas on one Redis, the image as built with PETSTORE_MOCK_STORE=redis://…
source test/container/redis-replicas.sh

# 8. the container recipes of docs/recipes, run as written with this image
source test/container/recipe-compose.sh
source test/container/recipe-kubernetes.sh
