#!/usr/bin/env bash
# Load and fault runs on the production profile, all on this machine and loopback only: a throwaway
# PostgreSQL 15 + pgvector cluster, a real OpenSearch 2.19 node (in its own JVM), an OIDC issuer
# (mock-oauth2-server) and the hub with --spring.profiles.active=prod, OIDC on. Each scenario gets a fresh stack.
#
#   scripts/load-test-prod.sh [--clients 16] [--seconds 60] SCENARIO...
#     none        no fault (reindex every 8 s as in every scenario)
#     opensearch  the OpenSearch node is killed at 15 s and stays down
#     postgres    PostgreSQL is stopped at 15 s and started again at 40 s
#     embedding   the embedding model fails from 15 s to 40 s (bench serve --embedding-failure-file)
#
# Prints the harness report per scenario, then the audit rows written for the run (every query is audited:
# decisions made while PostgreSQL was down are spooled and must be in the table at the end).
set -euo pipefail
cd "$(dirname "$0")/.."
clients=16; seconds=60; scenarios=()
while [ $# -gt 0 ]; do
  case "$1" in
    --clients) clients=$2; shift 2 ;;
    --seconds) seconds=$2; shift 2 ;;
    none|opensearch|postgres|embedding) scenarios+=("$1"); shift ;;
    *) echo "unknown argument: $1 (scenarios: none opensearch postgres embedding)" >&2; exit 2 ;;
  esac
done
[ ${#scenarios[@]} -gt 0 ] || scenarios=(none)

mvn -B -o -q package -DskipTests
mvn -B -o -q test-compile
cp=$(scripts/test-classpath.sh)
jar=$(ls target/poimen-memory-*.jar | grep -v original | head -1)
free_port() { python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'; }
wait_for() { for _ in $(seq 1 180); do if eval "$1"; then return 0; fi; sleep 1; done; echo "timed out: $1" >&2; return 1; }

run_scenario() {
  local scenario=$1 work; work=$(realpath -m "target/load-prod/$scenario")
  rm -rf "$work"; mkdir -p "$work"
  local pids=()
  cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    scripts/pg-cluster.sh stop "$work/pg" 2>/dev/null || true
  }
  trap cleanup RETURN

  local db_url; db_url=$(scripts/pg-cluster.sh start "$work/pg")
  java -cp "$cp" io.poimen.memory.ops.load.OpenSearchNode "$work/opensearch.url" >"$work/opensearch.log" 2>&1 &
  local os_pid=$!; pids+=("$os_pid")
  local oidc_port; oidc_port=$(free_port)
  SERVER_PORT=$oidc_port JSON_CONFIG='{"interactiveLogin":false,"tokenCallbacks":[{"issuerId":"default",
    "tokenExpiry":7200,"requestMappings":[{"requestParam":"grant_type","match":"*","claims":{"sub":"load-test",
    "aud":["poimen-memory"],"groups":["platform-team","ml-team","rust-learners"],"roles":["admin"]}}]}]}' \
    java -cp "$cp" no.nav.security.mock.oauth2.StandaloneMockOAuth2ServerKt >"$work/oidc.log" 2>&1 &
  pids+=("$!")
  wait_for "[ -s '$work/opensearch.url' ]"
  wait_for "curl -sf http://127.0.0.1:$oidc_port/default/.well-known/openid-configuration >/dev/null"

  cp -r examples/vault "$work/vault"
  local hub_port; hub_port=$(free_port)
  POIMEN_DB_URL=${db_url%%\?*} POIMEN_DB_USER=poimen POIMEN_OPENSEARCH_URL=$(cat "$work/opensearch.url") \
    POIMEN_OIDC_ISSUER_URI=http://127.0.0.1:$oidc_port/default POIMEN_VAULT_PATH=$work/vault \
    java -jar "$jar" bench serve --embedding-failure-file="$work/embedding-fails" --spring.profiles.active=prod \
      --server.address=127.0.0.1 --server.port="$hub_port" --poimen.data.dir="$work/data" \
      >"$work/hub.log" 2>&1 &
  pids+=("$!")
  wait_for "curl -sf http://127.0.0.1:$hub_port/actuator/health/readiness >/dev/null"
  local token; token=$(curl -sf -X POST "http://127.0.0.1:$oidc_port/default/token" \
    -d grant_type=client_credentials -d client_id=load-test -d client_secret=x -d scope=openid \
    | python3 -c 'import json,sys; print(json.load(sys.stdin)["access_token"])')

  local faults=()
  case "$scenario" in
    opensearch) faults=(--fault "15:kill $os_pid") ;;
    postgres) faults=(--fault "15:scripts/pg-cluster.sh stop $work/pg" --fault "40:scripts/pg-cluster.sh resume $work/pg") ;;
    embedding) faults=(--fault "15:touch $work/embedding-fails" --fault "40:rm -f $work/embedding-fails") ;;
  esac
  echo "=== scenario: $scenario ($clients clients x $seconds s, prod profile, OIDC on) ==="
  MEM_API_TOKEN=$token java -cp "$cp" io.poimen.memory.ops.load.LoadHarness --url "http://127.0.0.1:$hub_port" \
    --clients "$clients" --seconds "$seconds" --reindex-every 8 --vault "$work/vault" "${faults[@]}" \
    | tee "$work/report.txt"
  sleep 12 # one audit spool replay period
  local port; port=$(cat "$work/pg/port")
  # every request is audited under its own trace id: the distinct trace ids must match the requests sent
  echo "audit: $(runuser -u postgres -- /usr/lib/postgresql/15/bin/psql -h 127.0.0.1 -p "$port" -U poimen -d poimen \
    -qAt -F ' ' -c "select count(*), count(distinct trace_id) from rbac_audit_log where user_id = 'load-test'" \
    | awk '{print $1 " rows, " $2 " distinct trace ids"}')"
  echo "audit spool left: $( (cat "$work/data/audit-spool.jsonl" 2>/dev/null || true) | wc -l) rows"
  grep -c "ERROR" "$work/hub.log" | sed 's/^/hub log ERROR lines: /' || true
}

for s in "${scenarios[@]}"; do run_scenario "$s"; done
