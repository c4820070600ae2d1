#!/usr/bin/env bash
# Throwaway PostgreSQL 15 cluster for tests: `pg-cluster.sh start DIR` prints the JDBC URL,
# `pg-cluster.sh stop DIR` stops it, `pg-cluster.sh resume DIR` starts a stopped cluster again on its port
# (fault runs). initdb refuses root, so the cluster runs as the postgres user. shared_buffers holds the HNSW
# index of 100,000 chunks (195 MB; the default 128 MB made each pgvector search read pages from the OS cache).
set -euo pipefail
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
cmd=${1:?start|stop}; dir=$(realpath -m "${2:?cluster directory}")
as_pg() { if [ "$(id -u)" = 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi; }

case "$cmd" in
start)
  mkdir -p "$dir"; [ "$(id -u)" = 0 ] && chown postgres "$dir"
  if [ ! -f "$dir/data/PG_VERSION" ]; then
    as_pg "$PG_BIN/initdb" -D "$dir/data" -U poimen --auth=trust -E UTF8 >"$dir/initdb.log" 2>&1
  fi
  port=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
  as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=600 -c shared_buffers=512MB" start >/dev/null
  as_pg "$PG_BIN/psql" -h 127.0.0.1 -p "$port" -U poimen -d postgres -qAt \
    -c "CREATE DATABASE poimen" >/dev/null
  echo "$port" > "$dir/port"
  echo "jdbc:postgresql://127.0.0.1:$port/poimen?user=poimen"
  ;;
resume)
  port=$(cat "$dir/port")
  as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -l "$dir/server.log" -w -t 60 \
    -o "-p $port -k $dir -c listen_addresses=127.0.0.1 -c fsync=off -c max_connections=600 -c shared_buffers=512MB" start >/dev/null
  ;;
stop)
  [ -f "$dir/data/postmaster.pid" ] && as_pg "$PG_BIN/pg_ctl" -D "$dir/data" -m fast -w stop >/dev/null || true
  ;;
*) echo "usage: $0 start|stop|resume DIR" >&2; exit 2 ;;
esac
