# The Kubernetes recipe (docs/recipes/kubernetes.md) run with `podman kube play`: its manifest
# extracted by the docs tests' extractor, played with this run's image (a localhost/ tag: nothing is
# pulled), probed as the kubelet probes it, then `podman kube down`. Sourced by test-container.sh
# after the image is built: uses its engine, tag, run_id, work and bookkeeping arrays.
# Swapped, and why: the image (registry.example.com/… is the user's registry) is this run's tag; the
# Deployment's, Service's and Secret's names are this run's, so that runs beside each other do not
# collide; and the container port gets a hostPort on 127.0.0.1, because Podman 4.3's kube play (no
# --publish flag) publishes a containerPort without hostPort on the same port of every interface.
# What Podman 4.3.1 does not do, so the probes are sent here as the kubelet sends them (GET, the
# pod's IP as Host, no token): it ignores readinessProbe, and turns the httpGet livenessProbe into
# `curl -f …`, which the image (node:*-slim) does not have; its health checks also need systemd.

if [ "$engine" != podman ]; then
  echo "note kubernetes recipe: not run: $engine has no kube play (test/docs/recipes-static.test.ts checks the manifests)"
  return 0
fi

kube_dir=$(extract_recipe docs/recipes/kubernetes.md kubernetes)
kube_name="$run_id-kube"
kube_port=$(free_port)
manifest="$kube_dir/petstore-mock.yaml"
swap "$manifest" 1 '^\(          image: \)registry\.example\.com/petstore-mock:[0-9][0-9.]*$' "\1localhost/$tag"
swap "$manifest" 2 '^\(  name: \)petstore-mock$' "\1$kube_name"
swap "$manifest" 1 'secretKeyRef: { name: petstore-mock,' "secretKeyRef: { name: $kube_name-secret,"
swap "$manifest" 1 '^\(          ports: \[{ containerPort: 4010\) }\]$' "\1, hostPort: $kube_port, hostIP: 127.0.0.1 }]"

# The page's `kubectl create secret generic … --from-literal=admin-token=…`, as Podman 4.3 reads a
# secretKeyRef: a Podman secret holding a JSON object of base64 values.
admin_token=$(node -p "require('crypto').randomBytes(16).toString('hex')")
secrets+=("$kube_name-secret")
printf '{"admin-token":"%s"}' "$(printf %s "$admin_token" | base64)" |
  "$engine" secret create "$kube_name-secret" - >/dev/null || fail "kubernetes recipe: create the secret"

pods+=("$kube_name-pod-0")
timeout 120 "$engine" kube play "$manifest" >"$work/kube.log" 2>&1 ||
  { tail -20 "$work/kube.log" >&2; fail "kubernetes recipe: podman kube play"; }
kube_container="$kube_name-pod-0-petstore-mock"
infra=$("$engine" pod inspect --format '{{.InfraContainerID}}' "$kube_name-pod-0")
pod_ip=$("$engine" inspect --format '{{range .NetworkSettings.Networks}}{{.IPAddress}}{{end}}' "$infra")
ok "kubernetes recipe: podman kube play runs the Deployment with the local image (pod IP ${pod_ip:-none})"

node test/container/kube-probes.mjs "$manifest" "http://127.0.0.1:$kube_port" "${pod_ip:-127.0.0.1}" "$admin_token" ||
  { "$engine" logs "$kube_container" >&2 || true; fail "kubernetes recipe: probes and requests"; }

uid=$("$engine" exec "$kube_container" node -p 'process.getuid()')
[ "$uid" = 1000 ] || fail "kubernetes recipe: runs as uid $uid, not the securityContext's 1000"
if "$engine" exec "$kube_container" node -e "require('fs').writeFileSync('/probe', '')" 2>/dev/null; then
  fail "kubernetes recipe: the root filesystem is writable despite readOnlyRootFilesystem"
fi
ok "kubernetes recipe: securityContext applied (uid 1000, read-only root filesystem)"

timeout 120 "$engine" kube down "$manifest" >>"$work/kube.log" 2>&1 || fail "kubernetes recipe: podman kube down"
! "$engine" pod exists "$kube_name-pod-0" || fail "kubernetes recipe: the pod is left after kube down"
"$engine" secret rm "$kube_name-secret" >/dev/null || fail "kubernetes recipe: remove the secret"
ok "kubernetes recipe: podman kube down removes the pod"
