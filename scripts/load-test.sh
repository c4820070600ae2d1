#!/usr/bin/env bash
# Load and fault harness against a hub on loopback (io.poimen.memory.ops.load.LoadHarness).
#   scripts/load-test.sh --url http://127.0.0.1:8091 --clients 16 --seconds 20 --reindex-every 8 \
#     [--fault "6:COMMAND"]...          (COMMAND runs in bash at second 6; see docs/operations.md)
# MEM_API_TOKEN, when set, is sent as the bearer token. Limits: 64 clients, 600 s, loopback hosts only.
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -o -q test-compile
if [ ! -s target/load-cp.txt ]; then
  mvn -B -q dependency:build-classpath -Dmdep.outputFile=target/load-cp.txt -Dmdep.includeScope=test
fi
exec java -cp "target/test-classes:target/classes:$(cat target/load-cp.txt)" io.poimen.memory.ops.load.LoadHarness "$@"
