# The image under the memory limit of deploy/kubernetes/deployment.yaml (issue 29): one container of
# it run with the engine's --memory (and --memory-swap, the same: no swap, as on Kubernetes) at that
# limit, on the memory store (every session's pets in the process: the heaviest case) with
# PETSTORE_MOCK_MAX_SESSIONS=200 (the battery's sessions are all kept, so every 201 must read back).
# memory-limit.ts checks that the budget the mock derived comes from the container's limit, then runs
# the hostile battery of the test suite against it; here the engine says whether the container lived:
# still running, not OOM-killed, no OOM kill in its cgroup, and `stop` ends it with exit code 0.
# Where the engine cannot apply --memory (rootless Podman on cgroup v1, a kernel without the memory
# controller), it says so in a "note" line and the section is not run.
# Sourced by test-container.sh after the image is built: uses its engine, tag, run_id, run_label and
# containers, and its stop_gracefully.

memory_limit=$(node_modules/.bin/vite-node test/container/memory-limit.ts limit) ||
  fail "memory limit: could not read the limit of deploy/kubernetes/deployment.yaml"
memory_name="$run_id-memory"
containers+=("$memory_name")
if ! "$engine" run -d --read-only --name "$memory_name" --label "$run_label" -p 127.0.0.1::4010 \
  --memory "$memory_limit" --memory-swap "$memory_limit" \
  -e PETSTORE_MOCK_MAX_SESSIONS=200 -e PETSTORE_MOCK_LOG=silent "$tag" >"$work/memory-run.log" 2>&1; then
  if grep -qiE 'memory|cgroup' "$work/memory-run.log"; then
    echo "note memory limit: not run: $engine cannot apply --memory here: $(tr '\n' ' ' <"$work/memory-run.log")"
    "$engine" rm -f "$memory_name" >/dev/null 2>&1 || true
    return 0
  fi
  cat "$work/memory-run.log" >&2
  fail "memory limit: $engine run"
fi
memory_url="http://127.0.0.1:$("$engine" port "$memory_name" 4010 | head -1 | sed 's/.*://')"
wait_healthy "$memory_url" || { "$engine" logs "$memory_name" >&2 || true; fail "memory limit: not healthy in 30 s"; }

# What the container was given, as the server saw it: its banner names where the budget comes from.
memory_mib=$((memory_limit / 1048576))
# The engine's log reaches `logs` a moment after the server wrote it: wait (5 s at most) for the
# banner's budget line before reading where the budget came from, or the battery is skipped by a race.
for _ in $(seq 1 50); do
  "$engine" logs "$memory_name" 2>&1 | grep -q 'memory: budget' && break
  sleep 0.1
done
if ! "$engine" logs "$memory_name" 2>&1 | grep -q "(the container's memory limit, $memory_mib MiB ("; then
  echo "note memory limit: not run: $engine accepted --memory $memory_limit, but the container's cgroup shows no limit" \
    "(rootless on cgroup v1, or the memory controller not delegated); the server said:" \
    "$("$engine" logs "$memory_name" 2>&1 | grep 'memory:' | head -1)"
  "$engine" rm -f "$memory_name" >/dev/null 2>&1 || true
  return 0
fi
[ "$("$engine" inspect --format '{{.HostConfig.Memory}}' "$memory_name")" = "$memory_limit" ] ||
  fail "memory limit: $engine inspect shows HostConfig.Memory $("$engine" inspect --format '{{.HostConfig.Memory}}' "$memory_name")"
ok "memory limit: the image runs with --memory $memory_limit ($memory_mib MiB, deploy/kubernetes/deployment.yaml's limit); its banner: $("$engine" logs "$memory_name" 2>&1 | grep -o 'memory: budget [0-9]* MiB')"

node_modules/.bin/vite-node test/container/memory-limit.ts battery "$memory_url" "$memory_limit" ||
  { "$engine" logs "$memory_name" 2>&1 | tail -20 >&2 || true
    fail "memory limit: the battery (above); the container's running/OOM-killed/exit code:" \
      "$("$engine" inspect --format '{{.State.Running}} {{.State.OOMKilled}} {{.State.ExitCode}}' "$memory_name")"; }

# The engine's word: running, not OOM-killed, never restarted.
memory_state=$("$engine" inspect --format '{{.State.Running}} {{.State.OOMKilled}} {{.RestartCount}}' "$memory_name")
[ "$memory_state" = "true false 0" ] ||
  fail "memory limit: after the battery, running/OOM-killed/restarts: $memory_state, expected true false 0"
ok "memory limit: the container still runs after the battery, not OOM-killed, never restarted"
# The cgroup's: no process of the container killed for memory (oom_kill of cgroup v2's memory.events,
# v1's memory.oom_control, where the kernel counts it), and its peak use and the server's peak RSS.
memory_figures=$("$engine" exec "$memory_name" node -e '
  const fs = require("fs")
  const read = (f) => { try { return fs.readFileSync(f, "utf8") } catch { return "" } }
  const v2 = read("/sys/fs/cgroup/memory.events") !== ""
  const counters = v2 ? read("/sys/fs/cgroup/memory.events") : read("/sys/fs/cgroup/memory/memory.oom_control")
  const kills = /^oom_kill ([0-9]+)$/m.exec(counters)?.[1] ?? "uncounted"
  const peak = Number(read(v2 ? "/sys/fs/cgroup/memory.peak" : "/sys/fs/cgroup/memory/memory.max_usage_in_bytes")) / 2 ** 20
  const hwm = Number(/VmHWM:\s+([0-9]+)/.exec(read("/proc/1/status"))?.[1]) / 1024
  console.log(kills, peak ? peak.toFixed(1) : "unknown", hwm.toFixed(1))
') || fail "memory limit: read the container's cgroup"
read -r memory_kills memory_peak memory_hwm <<<"$memory_figures"
[ "$memory_kills" = 0 ] || [ "$memory_kills" = uncounted ] || fail "memory limit: the cgroup counts $memory_kills OOM kills"
ok "memory limit: OOM kills in the container's cgroup: $memory_kills; its peak use $memory_peak MiB, the server's peak RSS $memory_hwm MiB, of $memory_mib MiB"
stop_gracefully "$memory_name" "after the battery under --memory $memory_limit"
"$engine" rm -f "$memory_name" >/dev/null || fail "memory limit: remove the container"
