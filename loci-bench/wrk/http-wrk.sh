#!/usr/bin/env sh
# HTTP under an external load generator: wrk (Debian package `wrk`) against a real `loci serve`
# over a fresh data directory, durability `always`, one writer token. Not part of any test.
#
#   loci-bench/wrk/http-wrk.sh [THREADS] [CONNECTIONS] [SECONDS]     (default 2 16 10)
#
# Seeds (not measured) SEED_SECONDS (default 10) of trace POSTs and as long of node PUTs, then
# measures, each after a 3 s warm-up of the same script: GET one random trace, POST a trace (201 only after fsync),
# search by tag (limit 10), and recall (hybrid, k 10, hashing embedding). Prints wrk's output
# and the load average before each run. Environment: PORT (default 7171), LOCI_JAVA_OPTS, LOCI
# (the launcher, default ./loci, which builds the distribution when sources changed).
set -eu
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
threads=${1:-2}
conns=${2:-16}
secs=${3:-10}
port=${PORT:-7171}
command -v wrk >/dev/null || { echo "wrk not found: apt-get install -y wrk" >&2; exit 2; }

work=$(mktemp -d)
trap 'kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; rm -rf "$work"' EXIT
loci() { ${LOCI:-"$root/loci"} --data "$work/data" "$@"; }

LOCI_TOKEN=$(loci token create --role writer --ns '*' 2>/dev/null)
export LOCI_TOKEN LOCI_WRK_DIR="$here" LOCI_UIDS="$work/uids"
# exec, so that $! is the server itself and the trap stops it
(exec ${LOCI:-"$root/loci"} --data "$work/data" --durability always serve --port "$port" \
  --embedding hashing >"$work/serve.log" 2>&1) &
pid=$!
url="http://127.0.0.1:$port"
i=0
until curl -fs "$url/health" >/dev/null; do
  i=$((i + 1)); [ "$i" -lt 120 ] || { cat "$work/serve.log" >&2; exit 1; }; sleep 1
done

run() { # name script seconds
  echo "== $1: wrk -t$threads -c$conns -d${3}s --latency ($(cut -d' ' -f1-3 /proc/loadavg) load)"
  wrk -t"$threads" -c"$conns" -d"$3"s --latency -s "$here/$2" "$url"
}
quiet() { wrk -t"$threads" -c"$conns" -d"$2"s -s "$here/$1" "$url" >/dev/null; }

seed=${SEED_SECONDS:-10}
echo "seeding: $seed s of trace POSTs, $seed s of node PUTs (not measured)"
quiet post.lua "$seed"
quiet node.lua "$seed"
cursor=""
: >"$LOCI_UIDS"
while :; do
  page=$(curl -fs -H "Authorization: Bearer $LOCI_TOKEN" \
    "$url/v1/ns/bench/traces?limit=1000${cursor:+&cursor=$cursor}")
  echo "$page" | jq -r '.items[].uid' >>"$LOCI_UIDS"
  cursor=$(echo "$page" | jq -r '.next_cursor // empty')
  [ -n "$cursor" ] || break
done
nodes=$(curl -fs -H "Authorization: Bearer $LOCI_TOKEN" "$url/v1/ns/bench/graph-stats" | jq -c .)
echo "seeded: $(wc -l <"$LOCI_UIDS") traces; graph $nodes; $(nproc) cores"

for op in get post search recall; do
  quiet "$op.lua" 3
  run "$op" "$op.lua" "$secs"
done
