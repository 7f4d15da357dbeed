#!/usr/bin/env bash
# Downloads Debian source packages (the .dsc and its tarballs) into a folder that
# `./trigrep index` reads, enabling deb-src entries for the machine's release when needed.
#
#   indexer/fetch-debian-sources.sh OUT_DIR PACKAGE...        packages named on the command line
#   indexer/fetch-debian-sources.sh OUT_DIR -f LIST_FILE      one package per line, '#' comments
#   --unpack   also unpack each with dpkg-source -x into OUT_DIR/unpacked/NAME_VERSION
#              (Debian Code Search's mirror layout; cindex and rg need unpacked files)
#
# Needs apt-get (and root, or sudo, to enable deb-src and run apt-get update once).
set -euo pipefail

usage() { sed -n '2,10p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[ $# -ge 2 ] || usage
out="$1"; shift
unpack=0
packages=()
while [ $# -gt 0 ]; do
  case "$1" in
    -f) shift; while read -r line; do line="${line%%#*}"; line="$(echo "$line" | xargs)"; [ -n "$line" ] && packages+=("$line"); done < "$1" ;;
    --unpack) unpack=1 ;;
    -h|--help) usage ;;
    *) packages+=("$1") ;;
  esac
  shift
done
[ ${#packages[@]} -gt 0 ] || usage

sudo=""
[ "$(id -u)" -eq 0 ] || sudo="sudo"

enable_deb_src() {
  if apt-get indextargets 2>/dev/null | grep -q 'Created-By: Sources'; then
    return 0
  fi
  echo "fetch: enabling deb-src entries" >&2
  local changed=0 f
  for f in /etc/apt/sources.list.d/*.sources; do
    [ -f "$f" ] || continue
    if grep -q '^Types: deb$' "$f"; then
      $sudo sed -i 's/^Types: deb$/Types: deb deb-src/' "$f"
      changed=1
    fi
  done
  if [ $changed -eq 0 ] && [ -f /etc/apt/sources.list ]; then
    grep '^deb ' /etc/apt/sources.list | sed 's/^deb /deb-src /' | $sudo tee /etc/apt/sources.list.d/trigrep-deb-src.list >/dev/null
  fi
  $sudo apt-get update -q >&2
}

enable_deb_src
mkdir -p "$out"
cd "$out"
failed=0
for p in "${packages[@]}"; do
  if ls ./"${p}"_*.dsc >/dev/null 2>&1; then
    echo "fetch: $p already here" >&2
  elif ! apt-get source --download-only -q "$p" >&2; then
    echo "fetch: could not download $p" >&2
    failed=$((failed + 1))
    continue
  fi
  if [ $unpack -eq 1 ]; then
    dsc="$(ls ./"${p}"_*.dsc | head -n 1)"
    name="$(basename "$dsc" .dsc)"
    if [ ! -d "unpacked/$name" ]; then
      mkdir -p unpacked
      dpkg-source --no-check --no-copy -x "$dsc" "unpacked/$name" >/dev/null
    fi
  fi
done
echo "fetch: ${#packages[@]} requested, $failed failed, in $out" >&2
[ $failed -eq 0 ]
