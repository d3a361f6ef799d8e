#!/usr/bin/env bash
# Issue 28 from a client that is not TypeScript: plain curl against the built server (dist/bin.js), sessions
# chosen by base URL and by API key, sessions that never vanish silently, scoped admin tokens. Prints
# "ok …" or "FAIL …" per check (.ci/run counts them); exits non-zero when one failed. Every server it
# starts listens on 127.0.0.1 and is stopped by its PID.
set -uo pipefail
cd "$(dirname "$0")/../.."

# The repository's own Node (scripts/node-runtime.mjs), not whatever is first on PATH: the machine's may
# be older than engines.node.
node=$PWD/node_modules/.bin/node
[ -x "$node" ] || node=node

failed=0
pids=()
work=$(mktemp -d)
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT

ok() { echo "ok   $*"; }
fail() { echo "FAIL $*"; failed=1; }
# expect NAME WANT GOT
expect() { if [ "$2" = "$3" ]; then ok "$1"; else fail "$1: expected $2, got $3"; fi; }
# contains NAME NEEDLE TEXT
contains() { case "$3" in *"$2"*) ok "$1" ;; *) fail "$1: no $2 in: $3" ;; esac; }

port() { "$node" -e "const s=require('net').createServer().listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# serve ARGS…: starts the server on a free port; sets $base.
serve() {
  local p
  p=$(port)
  "$node" dist/bin.js --host 127.0.0.1 --port "$p" --log silent "$@" >"$work/server-$p.log" 2>&1 &
  pids+=($!)
  base="http://127.0.0.1:$p"
  for _ in $(seq 1 100); do
    curl -sf "$base/__admin/health" >/dev/null && return 0
    sleep 0.1
  done
  fail "server $* did not start: $(cat "$work/server-$p.log")"
  return 1
}

# call METHOD URL [curl args…]: sets $status, $body and $headers.
call() {
  local method=$1 url=$2
  shift 2
  status=$(curl -s -X "$method" -o "$work/body" -D "$work/headers" -w '%{http_code}' "$@" "$url")
  body=$(cat "$work/body")
  headers=$(tr -d '\r' <"$work/headers" | tr 'A-Z' 'a-z')
}

key=(-H 'Authorization: Bearer ci-key')
json=(-H 'Content-Type: application/json')

# 1. A session by base URL, created on first use, its Location keeping the prefix.
serve --max-sessions 3 --session-ttl 2 || exit 1
call POST "$base/sessions/job-42/v1/pets" "${key[@]}" "${json[@]}" -d '{"name":"Rex","categoryId":1}'
expect "base URL: POST /sessions/job-42/v1/pets creates the pet" 201 "$status"
contains "base URL: Location keeps the prefix" "location: /sessions/job-42/v1/pets/" "$headers"
contains "base URL: the answer that created the session says so" "x-mock-session-created: true" "$headers"
location=$(printf '%s\n' "$headers" | sed -n 's/^location: //p')
call GET "$base$location" "${key[@]}"
expect "base URL: following Location stays in the session" 200 "$status"
call GET "$base/v1/pets/${location##*/}" "${key[@]}"
expect "base URL: the default session does not have it" 404 "$status"
call GET "$base/sessions/job-42/__admin/requests"
contains "base URL: the session's journal through the prefix" '"path":"/v1/pets"' "$body"
contains "base URL: the journal names the API key by fingerprint" '"apiKeyFingerprint":"sha256:' "$body"
call GET "$base/sessions/job-42/openapi.json"
contains "base URL: the served contract's server carries the prefix" '"url": "/sessions/job-42/v1"' "$body"
call GET "$base/sessions/a/v1/pets" "${key[@]}" -H 'X-Mock-Session: b'
expect "conflict: prefix a and header b answer 400" 400 "$status"
contains "conflict: the Error names both" "session_conflict" "$body"

# 2. The cap refuses a new session instead of dropping job-a's world; reads create nothing.
call POST "$base/sessions/job-a/__admin/faults" "${json[@]}" -d '{"operation":"listPets","status":503}'
expect "cap: job-a gets a listPets 503 rule" 201 "$status"
for job in job-b; do call GET "$base/sessions/$job/v1/pets" "${key[@]}"; done
call GET "$base/sessions/job-d/v1/pets" "${key[@]}"
expect "cap: job-d is refused at --max-sessions 3" 503 "$status"
contains "cap: the refusal says how many exist" '"code":"too_many_sessions"' "$body"
call GET "$base/sessions/job-a/v1/pets" "${key[@]}"
expect "cap: job-a keeps its rule" 503 "$status"
call GET "$base/sessions/nobody/__admin/requests"
expect "reads create nothing: 404" 404 "$status"
contains "reads create nothing: session_not_found" session_not_found "$body"

# 3. Idle past --session-ttl: 410 with when and why, until created again; never a silent 200.
sleep 3
call GET "$base/sessions/job-a/v1/pets" "${key[@]}"
expect "ttl: job-a idle past the TTL answers 410" 410 "$status"
contains "ttl: the Error says session_expired" '"code":"session_expired"' "$body"
call GET "$base/__admin/health"
contains "ttl: health counts the drop" '"sessionsDropped":' "$body"
call POST "$base/__admin/sessions/job-a"
expect "ttl: POST /__admin/sessions/job-a creates it again" 201 "$status"
call GET "$base/sessions/job-a/v1/pets" "${key[@]}"
expect "ttl: a fresh job-a, no rule" 200 "$status"

# 4. --session-by-key: the service's own API key is its session, named by a hash of the key (issue 39:
# never the key): key- and 16 hex digits of SHA-256 of the label, a NUL and the key.
serve --session-by-key || exit 1
keyed="key-$(printf 'petstore-mock session-by-key\000%s' ci-key | sha256sum | cut -c1-16)"
call POST "$base/v1/pets" "${key[@]}" "${json[@]}" -d '{"name":"Keyed","categoryId":1}'
expect "by key: ci-key creates in its session" 201 "$status"
call GET "$base/__admin/state" -H "X-Mock-Session: $keyed"
contains "by key: the pet is in session $keyed" Keyed "$body"
call GET "$base/__admin/state" -H 'X-Mock-Session: ci-key'
expect "by key: no session is named by the key" 404 "$status"
call GET "$base/__admin/state"
case "$body" in *Keyed*) fail "by key: the default session has it" ;; *) ok "by key: the default session does not have it" ;; esac

# 5. Scoped admin tokens: another team's token is 403, none or a wrong one 401.
serve --admin-token root-s3cret --admin-token 'ta-s3cret=team-a-*' --admin-token 'qa-s3cret=*:read' || exit 1
call POST "$base/__admin/reset"
expect "scopes: no token 401" 401 "$status"
call POST "$base/__admin/reset" -H 'Authorization: Bearer nope'
expect "scopes: a wrong token 401" 401 "$status"
call POST "$base/sessions/team-b-1/__admin/reset" -H 'Authorization: Bearer ta-s3cret'
expect "scopes: team a's token on team b's session 403" 403 "$status"
call POST "$base/sessions/team-a-1/__admin/reset" -H 'Authorization: Bearer ta-s3cret'
expect "scopes: team a's token on its own session 204" 204 "$status"
call GET "$base/sessions/team-a-1/__admin/requests" -H 'Authorization: Bearer qa-s3cret'
expect "scopes: the read-only token reads" 200 "$status"
call DELETE "$base/sessions/team-a-1/__admin/requests" -H 'Authorization: Bearer qa-s3cret'
expect "scopes: the read-only token changes nothing" 403 "$status"

# 6. Off loopback, an open control plane is a stated choice.
p=$(port)
out=$("$node" dist/bin.js --host 0.0.0.0 --port "$p" --log silent 2>&1 </dev/null)
code=$?
expect "open admin: 0.0.0.0 without a token or --open-admin exits 2" 2 "$code"
contains "open admin: the message says what to set" "--open-admin" "$out"
expect "open admin: one line, not the usage" 1 "$(printf '%s\n' "$out" | wc -l | tr -d ' ')"

[ "$failed" = 0 ]
