# The image as built on the Redis store (issue 22: the compose and Kubernetes setups run it with
# PETSTORE_MOCK_STORE=redis://…, the client bundled): Debian's redis-server on a loopback port of this run, in a
# directory of its own with the append-only file on (as test/helpers/redis-server.ts starts it), and
# two containers of the image on the host network (so that their 127.0.0.1 is the one redis-server
# listens on), each on a port of its own: two replicas on one Redis. redis-replicas.mjs checks each
# phase; between phases, replica A is killed and started again, then redis-server is stopped and
# started again on the same port and directory.
# Sourced by test-container.sh after the image is built: uses its engine, tag, run_id, run_label,
# work and containers, and sets redis_pid, which its cleanup stops by PID.

redis_server=${REDIS_SERVER:-/usr/bin/redis-server}
if [ ! -x "$redis_server" ]; then
  DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends redis-server >/dev/null 2>&1 ||
    fail "redis replicas: $redis_server is missing and apt-get could not install redis-server"
fi
redis_dir="$work/redis"
redis_state="$work/redis-pet.json"
mkdir -p "$redis_dir"

# Starts redis-server on $redis_port in $redis_dir and waits (bounded: 10 s) until it accepts
# connections; non-zero (and nothing left running) if it does not.
start_redis() {
  local _
  "$redis_server" --port "$redis_port" --bind 127.0.0.1 --dir "$redis_dir" --appendonly yes --appendfsync everysec \
    --save '' --daemonize no --protected-mode yes --logfile '' --loglevel notice >"$redis_dir/server.log" 2>&1 &
  redis_pid=$!
  for _ in $(seq 1 100); do
    grep -q 'Ready to accept connections' "$redis_dir/server.log" && return 0
    kill -0 "$redis_pid" 2>/dev/null || break
    sleep 0.1
  done
  tail -20 "$redis_dir/server.log" >&2
  stop_redis KILL
  return 1
}

# Stops redis-server by its PID (TERM by default: it writes its append-only file and exits) and
# waits for it, at most 10 s before a KILL.
stop_redis() {
  local signal=${1:-TERM} _
  [ -n "$redis_pid" ] || return 0
  kill "-$signal" "$redis_pid" 2>/dev/null || true
  for _ in $(seq 1 100); do
    kill -0 "$redis_pid" 2>/dev/null || break
    sleep 0.1
  done
  kill -KILL "$redis_pid" 2>/dev/null || true
  wait "$redis_pid" 2>/dev/null || true
  redis_pid=
}

# Runs a replica: read-only, host network, listening on 127.0.0.1:PORT only, on this run's Redis.
# The name is recorded for cleanup before the container exists.
run_replica() {
  local name=$1 port=$2
  containers+=("$name")
  "$engine" run -d --read-only --name "$name" --label "$run_label" --network host \
    -e PETSTORE_MOCK_HOST=127.0.0.1 -e PETSTORE_MOCK_PORT="$port" -e PETSTORE_MOCK_STORE="redis://127.0.0.1:$redis_port" \
    -e PETSTORE_MOCK_API_KEYS=redis-key \
    "$tag" >/dev/null
}

# Fails with the replicas' logs and the step's message.
replicas_fail() {
  local c
  for c in "$replica_a" "$replica_b"; do
    echo "--- $c" >&2
    "$engine" logs "$c" 2>&1 | tail -20 >&2 || true
  done
  fail "redis replicas: $*"
}

# Distinct free ports for redis-server and the two replicas (free_port draws each at random).
for _ in 1 2 3; do
  redis_port=$(free_port) port_a=$(free_port) port_b=$(free_port)
  [ "$redis_port" != "$port_a" ] && [ "$redis_port" != "$port_b" ] && [ "$port_a" != "$port_b" ] && break
done
start_redis || fail "redis replicas: redis-server did not start on 127.0.0.1:$redis_port in 10 s"

replica_a="$run_id-redis-a"
replica_b="$run_id-redis-b"
url_a="http://127.0.0.1:$port_a"
url_b="http://127.0.0.1:$port_b"
run_replica "$replica_a" "$port_a"
run_replica "$replica_b" "$port_b"
wait_healthy "$url_a" && wait_healthy "$url_b" || replicas_fail "the two containers did not answer health in 30 s"
ok "redis replicas: two containers of the image with PETSTORE_MOCK_STORE=redis://127.0.0.1:$redis_port (host network, ports $port_a and $port_b)"
node test/container/redis-replicas.mjs shared "$redis_state" "$url_a" "$url_b" || replicas_fail "what A changes, B sees"

"$engine" kill "$replica_a" >/dev/null || replicas_fail "$engine kill A"
[ "$("$engine" inspect --format '{{.State.Running}}' "$replica_a")" = false ] || replicas_fail "A still runs after kill"
"$engine" start "$replica_a" >/dev/null || replicas_fail "$engine start A"
wait_healthy "$url_a" || replicas_fail "A, started again, did not answer health in 30 s"
ok "redis replicas: $engine kill A, then start it again: healthy"
node test/container/redis-replicas.mjs restarted "$redis_state" "$url_a" "$url_b" || replicas_fail "A's restart lost the pet"

stop_redis
node test/container/redis-replicas.mjs down "$redis_state" "$url_a" "$url_b" || replicas_fail "answers with Redis down"
for c in "$replica_a" "$replica_b"; do
  [ "$("$engine" inspect --format '{{.State.Running}}' "$c")" = true ] || replicas_fail "$c exited while Redis was down"
done
ok "redis replicas: both containers still run while Redis is down"

start_redis || replicas_fail "redis-server did not start again on 127.0.0.1:$redis_port in 10 s"
node test/container/redis-replicas.mjs resumed "$redis_state" "$url_a" "$url_b" || replicas_fail "answers after Redis came back"

"$engine" rm -f "$replica_a" "$replica_b" >/dev/null || fail "redis replicas: remove the containers"
stop_redis
ok "redis replicas: both containers removed, redis-server stopped"
