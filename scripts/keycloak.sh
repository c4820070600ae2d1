#!/usr/bin/env bash
# Keycloak for tests, beside pg-cluster.sh: `keycloak.sh start DIR` starts Keycloak in dev mode on a free loopback
# port with the realm of examples/keycloak/poimen-realm.json imported (realm `poimen`) and prints its base URL,
# e.g. http://127.0.0.1:41234; `keycloak.sh stop DIR` stops it.
#
# The server distribution (org.keycloak:keycloak-quarkus-dist, a 160 MB zip) comes from Maven Central through Maven
# once and is unpacked into ${POIMEN_CACHE_DIR:-~/.cache/poimen}/keycloak-<version> (about 170 MB); a later start
# reuses it, also after `mvn clean`. Each start runs from DIR: its own copy of the small, rewritten parts of the
# installation (the jars stay in the cache), an in-memory database, the log in DIR/server.log. Keycloak needs
# Java 21+: KC_JAVA_HOME, default the Temurin 25 JDK. The admin user of the master realm is admin/admin
# (only ever on 127.0.0.1). Starting takes 30 s on a quiet machine and a few minutes under load.
set -euo pipefail
KC_VERSION=${KC_VERSION:-26.4.7}
KC_JAVA_HOME=${KC_JAVA_HOME:-/usr/lib/jvm/temurin-25-jdk-amd64}
START_TIMEOUT=${KC_START_TIMEOUT:-900}
project=$(cd "$(dirname "$0")/.." && pwd)
realm=$project/examples/keycloak/poimen-realm.json
cache=$(realpath -m "${POIMEN_CACHE_DIR:-$HOME/.cache/poimen}/keycloak-$KC_VERSION")
cmd=${1:?start|stop}; dir=$(realpath -m "${2:?run directory}")

# the distribution, unpacked into the cache once (in a temporary folder first, so a broken download never counts)
install() {
  [ -f "$cache/lib/quarkus-run.jar" ] && return
  mkdir -p "$(dirname "$cache")"
  local tmp; tmp=$(mktemp -d "$cache.download.XXXXXX")
  local artifact=org.keycloak:keycloak-quarkus-dist:$KC_VERSION:zip
  echo "downloading Keycloak $KC_VERSION ($artifact, 160 MB) into $cache" >&2
  (cd "$tmp" && { mvn -o -B -ntp -q dependency:copy -Dartifact="$artifact" -DoutputDirectory="$tmp" >/dev/null 2>&1 \
    || mvn -B -ntp -q dependency:copy -Dartifact="$artifact" -DoutputDirectory="$tmp" >&2; })
  if command -v unzip >/dev/null; then
    unzip -q "$tmp/keycloak-quarkus-dist-$KC_VERSION.zip" -d "$tmp"
  else
    python3 -m zipfile -e "$tmp/keycloak-quarkus-dist-$KC_VERSION.zip" "$tmp"
  fi
  rm -f "$tmp/keycloak-quarkus-dist-$KC_VERSION.zip"
  # another run may have finished first: keep its copy
  mv -T "$tmp/keycloak-$KC_VERSION" "$cache" 2>/dev/null || true
  rm -rf "$tmp"
  [ -f "$cache/lib/quarkus-run.jar" ] || { echo "Keycloak was not unpacked into $cache" >&2; exit 1; }
}

keep_build() {
  [ -d "$cache/lib/quarkus-dev" ] && return
  local tmp; tmp=$(mktemp -d "$cache/lib/quarkus-dev.XXXXXX")
  cp -R "$dir/keycloak/lib/quarkus/." "$tmp/"
  mv -T "$tmp" "$cache/lib/quarkus-dev" 2>/dev/null || rm -rf "$tmp"
}

free_port() {
  python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}

stop() {
  [ -f "$dir/pid" ] || return 0
  local pid; pid=$(cat "$dir/pid")
  if kill -0 "$pid" 2>/dev/null; then
    kill -TERM "$pid" 2>/dev/null || true
    for _ in $(seq 1 300); do kill -0 "$pid" 2>/dev/null || break; sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
  fi
  rm -f "$dir/pid"
}

case "$cmd" in
start)
  [ -x "$KC_JAVA_HOME/bin/java" ] || { echo "Keycloak needs Java 21+: no $KC_JAVA_HOME/bin/java (set KC_JAVA_HOME)" >&2; exit 1; }
  install
  stop
  rm -f "$dir/port"
  home=$dir/keycloak
  rm -rf "$home"; mkdir -p "$home/bin" "$home/lib" "$home/data/import"
  # dev mode builds into lib/quarkus and writes data/: those are per run; the 150 MB of jars are shared. The first
  # run's build (about 100 s under load) is kept in the cache as lib/quarkus-dev and reused (Keycloak rebuilds by
  # itself when its options differ from the build's)
  build=$cache/lib/quarkus; [ -f "$cache/lib/quarkus-dev/quarkus-application.dat" ] && build=$cache/lib/quarkus-dev
  cp "$cache/bin/kc.sh" "$home/bin/"
  cp -R "$cache/conf" "$cache/providers" "$cache/themes" "$home/"
  cp -R "$cache/lib/app" "$cache/lib/quarkus-run.jar" "$home/lib/"
  cp -R "$build" "$home/lib/quarkus"
  ln -s "$cache/lib/lib" "$home/lib/lib"
  cp "$realm" "$home/data/import/"
  port=$(free_port); management=$(free_port)
  # setsid: the server outlives this script and the caller's terminal; stop ends it by its pid. The add-opens:
  # on Java 24+ jboss-threads needs it to reset a worker's thread locals, without it every worker thread dies
  # after its first task (IllegalAccessError in server.log)
  JAVA_HOME=$KC_JAVA_HOME KC_BOOTSTRAP_ADMIN_USERNAME=admin KC_BOOTSTRAP_ADMIN_PASSWORD=admin \
    JAVA_OPTS_APPEND="--add-opens=java.base/java.lang=ALL-UNNAMED" \
    setsid sh "$home/bin/kc.sh" start-dev --import-realm --db=dev-mem --http-host=127.0.0.1 --http-port="$port" \
    --http-management-port="$management" --health-enabled=true </dev/null >"$dir/server.log" 2>&1 &
  echo $! > "$dir/pid"
  echo "$port" > "$dir/port"
  url=http://127.0.0.1:$port
  for _ in $(seq 1 "$START_TIMEOUT"); do
    if curl -fs "http://127.0.0.1:$management/health/ready" >/dev/null 2>&1 \
       && curl -fs "$url/realms/poimen/.well-known/openid-configuration" >/dev/null 2>&1; then
      keep_build; echo "$url"; exit 0
    fi
    kill -0 "$(cat "$dir/pid")" 2>/dev/null || { echo "Keycloak exited; its log:" >&2; tail -n 40 "$dir/server.log" >&2; exit 1; }
    sleep 1
  done
  echo "Keycloak not ready after ${START_TIMEOUT} s; the end of $dir/server.log:" >&2
  tail -n 40 "$dir/server.log" >&2
  stop; exit 1
  ;;
stop)
  stop
  ;;
*) echo "usage: $0 start|stop DIR" >&2; exit 2 ;;
esac
