#!/usr/bin/env bash
# The whole test suite on a fresh machine: installs pgvector when missing, starts a throwaway
# PostgreSQL cluster on a free port and Keycloak (scripts/keycloak.sh: downloaded once from Maven
# Central into ~/.cache/poimen, run on the Temurin 25 JDK), runs `mvn verify` against them
# (OpenSearch and mock-oauth2-server run inside the test JVM), and stops both at the end.
set -euo pipefail
cd "$(dirname "$0")/.."
command -v mvn >/dev/null || { echo "mvn not found: install Maven (apt-get install -y maven)" >&2; exit 1; }
# a merge that left conflict markers in a tracked file (a doc is not compiled, so nothing else would notice)
if git rev-parse --git-dir >/dev/null 2>&1 && git grep -nE '^(<<<<<<< |>>>>>>> )' -- . ':!*.jar' >&2; then
  echo "merge-conflict markers in the files above" >&2; exit 1
fi
scripts/install-pgvector.sh
# the web UI's browser tests (WebUiBrowserTest, WebUiReadingBrowserTest, ReviewBrowserTest, and the prod-profile end-to-end suite ProductionEndToEndTest:
# PostgreSQL + pgvector, OpenSearch, mock-oauth2-server, WireMock as Forgejo, a bare git remote) drive Debian's
# headless Chromium through chromedriver; without them the suite fails, it never skips them
if ! command -v chromium >/dev/null || ! command -v chromedriver >/dev/null; then
  apt-get install -y chromium chromium-driver || { apt-get update && apt-get install -y chromium chromium-driver; }
fi
[ -x /usr/bin/chromium ] && [ -x /usr/bin/chromedriver ] \
  || { echo "chromium and chromedriver are needed at /usr/bin (apt-get install chromium chromium-driver)" >&2; exit 1; }
pgdir=target/pg-test
scripts/pg-cluster.sh stop "$pgdir" 2>/dev/null || true
rm -rf "$pgdir"
kcdir=target/keycloak-test
scripts/keycloak.sh stop "$kcdir" 2>/dev/null || true
rm -rf "$kcdir"; mkdir -p "$kcdir"
trap 'scripts/keycloak.sh stop "$kcdir"; scripts/pg-cluster.sh stop "$pgdir"' EXIT
# Keycloak starts (one to three minutes) while Maven builds: its port is known at once, and the first test that
# needs it waits until it serves the realm (TestKeycloak)
scripts/keycloak.sh start "$kcdir" >"$kcdir/start.log" 2>&1 &
for _ in $(seq 1 900); do [ -s "$kcdir/port" ] && break; jobs -r | grep -q . || break; sleep 1; done
[ -s "$kcdir/port" ] || { echo "Keycloak did not start:" >&2; cat "$kcdir/start.log" >&2; exit 1; }
kcurl=http://127.0.0.1:$(cat "$kcdir/port")
url=$(scripts/pg-cluster.sh start "$pgdir")
echo "test PostgreSQL: $url"
echo "test Keycloak: $kcurl (log: $kcdir/server.log)"
POIMEN_TEST_PG_URL="$url" POIMEN_TEST_KEYCLOAK_URL="$kcurl" mvn -B -ntp verify "$@"
# the source tree is no test's vault: a hub makes a vault folder that is no git working copy one
[ ! -e examples/vault/.git ] || { echo "a test served examples/vault itself (examples/vault/.git was made)" >&2; exit 1; }
