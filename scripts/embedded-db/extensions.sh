#!/usr/bin/env bash
# Builds pgvector 0.8.0, pg_cron 1.6.3 and DocumentDB from the snapshots beside this file (their SHA-256 sums checked
# first) with PostgreSQL's PGXS, each inside its unpacked tree (DocumentDB's build reads its own Makefiles and scripts),
# and installs them into STAGE with DESTDIR, for build.sh to copy into the system's PostgreSQL.
#
#   extensions.sh WORK_DIR STAGE PG_CONFIG
set -euo pipefail

HERE="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
work="$1"
stage="$2"
pg_config="$3"
rm -rf "$work" "$stage.part"
mkdir -p "$work" "$stage.part"
(cd "$HERE" && sha256sum --quiet -c SHA256SUMS)
for f in pgvector-0.8.0 pg_cron-1.6.3 documentdb-b2e220c4; do tar -xJf "$HERE/$f.tar.xz" -C "$work"; done
# Debian ships the Intel decimal math library without a pkg-config file; this one names the variant DocumentDB links.
mkdir -p "$work/pkgconfig"
cp "$HERE/intelmathlib.pc" "$work/pkgconfig/"
export PKG_CONFIG_PATH="$work/pkgconfig${PKG_CONFIG_PATH:+:$PKG_CONFIG_PATH}"
make=(make -s -j2 PG_CONFIG="$pg_config" with_llvm=no)
for dir in pgvector-0.8.0 pg_cron-1.6.3; do
  "${make[@]}" -C "$work/$dir"
  "${make[@]}" -C "$work/$dir" install DESTDIR="$stage.part"
done
# Debian's libbson 1.23 lacks one constant DocumentDB's pinned 1.28 has.
ddb="$work/documentdb-b2e220c4"
"${make[@]}" -C "$ddb/pg_documentdb_core"
"${make[@]}" -C "$ddb/pg_documentdb" COPT='-DBSON_SUBTYPE_SENSITIVE=0x08 -Wno-error=switch'
"${make[@]}" -C "$ddb/pg_documentdb_core" install DESTDIR="$stage.part"
"${make[@]}" -C "$ddb/pg_documentdb" install DESTDIR="$stage.part" COPT='-DBSON_SUBTYPE_SENSITIVE=0x08 -Wno-error=switch'
mv "$stage.part" "$stage"
rm -rf "$work"
