#!/usr/bin/env bash
# Builds and installs pgvector for PostgreSQL 15 from Debian's source package (trixie),
# because Debian 12 does not package it. Does nothing when the extension is already there.
set -euo pipefail
PG_BIN=${PG_BIN:-/usr/lib/postgresql/15/bin}
ext_dir=$("$PG_BIN/pg_config" --sharedir 2>/dev/null)/extension
if [ -f "$ext_dir/vector.control" ]; then
  exit 0
fi
echo "pgvector: not installed, building it from Debian's source package" >&2
src_list=/etc/apt/sources.list.d/poimen-trixie-src.sources
if [ ! -f "$src_list" ]; then
  # Reuse the URIs and Signed-By of the first stanza of the system's sources, with suite trixie.
  uris=$(awk -F': ' '/^URIs:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources)
  signed=$(awk -F': ' '/^Signed-By:/{print $2; exit}' /etc/apt/sources.list.d/debian.sources)
  printf 'Types: deb-src\nURIs: %s\nSuites: trixie\nComponents: main\nSigned-By: %s\n' "$uris" "$signed" > "$src_list"
fi
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq postgresql-server-dev-15 build-essential dpkg-dev >/dev/null
work=$(mktemp -d)
( cd "$work" && apt-get source -qq pgvector >/dev/null 2>&1 )
dir=$(find "$work" -maxdepth 1 -mindepth 1 -type d -name 'pgvector*' | head -n 1)
[ -n "$dir" ] || { echo "pgvector: apt-get source produced no folder" >&2; exit 1; }
make -s -C "$dir" PG_CONFIG="$PG_BIN/pg_config" >/dev/null
make -s -C "$dir" PG_CONFIG="$PG_BIN/pg_config" install >/dev/null
rm -rf "$work"
[ -f "$ext_dir/vector.control" ] || { echo "pgvector: install did not produce vector.control" >&2; exit 1; }
echo "pgvector: installed into $ext_dir" >&2
