#!/usr/bin/env bash
# Downloads Debian source packages (the .dsc and its tarballs) into a folder that
# `./trigrep index` reads, enabling deb-src entries for the machine's release when needed; or, with
# --sync, keeps an index in step with a Debian Sources index or a set of .dsc files.
#
#   indexer/fetch-debian-sources.sh OUT_DIR PACKAGE...        packages named on the command line
#   indexer/fetch-debian-sources.sh OUT_DIR -f LIST_FILE      one package per line, '#' comments
#   --unpack   also unpack each with dpkg-source -x into OUT_DIR/unpacked/NAME_VERSION
#              (Debian Code Search's mirror layout; cindex and rg need unpacked files)
#
# Needs apt-get (and root, or sudo, to enable deb-src and run apt-get update once).
#
#   indexer/fetch-debian-sources.sh --sync --index DIR WANTED... [OPTION...]   (./trigrep sync ...)
# The wanted set, one source of:
#   --sources FILE     a Debian Sources index (plain, .gz, .xz, .bz2, .lz4, .zst); repeat it for
#                      several suites: the highest version of each package wins
#   --apt-sources      the Sources indexes of the machine's deb-src entries (apt-get update first)
#   --dsc-list FILE    .dsc paths, one a line ('-': standard input)
#   --dsc-dir DIR      every .dsc file in DIR
#   --packages FILE    only these source packages (one a line, '#' comments)
# --download DIR       where --sources/--apt-sources packages are downloaded (apt-get source);
#                      the versions an update replaced or removed are deleted from it
# --max-changes N      refuse (exit 3) a plan of more than N adds, replaces and removes (100)
# --force              apply a plan larger than --max-changes, or one that empties the index
# --dry-run            print the plan, change nothing
# --plan-only          print the plan against --held FILE ('-': standard input; `./trigrep
#                      segments --packages` output) without touching any index
# --trigrep PROG       the launcher to run segments and update with (default: ../trigrep)
# --lock FILE          the lock that keeps two syncs apart (default: DIR/.sync.lock)
# Plan lines on standard output: `add NEW`, `replace OLD NEW`, `remove OLD`; a log on standard
# error. Exit: 0 done or nothing to do, 1 done but some package could not be fetched or read,
# 2 bad usage, 3 refused (--max-changes, empty wanted set), 4 another sync holds the lock,
# 5 failed and nothing changed (unreadable wanted set, segments or update failed).
set -euo pipefail

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"

usage() { sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 2; }

# The names in a package list file: one a line, '#' starts a comment.
read_list() {
  sed -e 's/#.*//' -e 's/^[[:space:]]*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1"
}

fetch_main() {
  [ $# -ge 2 ] || usage
  local out="$1"; shift
  local unpack=0 packages=() line
  while [ $# -gt 0 ]; do
    case "$1" in
      -f) shift; while read -r line; do packages+=("$line"); done < <(read_list "$1") ;;
      --unpack) unpack=1 ;;
      -h|--help) usage ;;
      *) packages+=("$1") ;;
    esac
    shift
  done
  [ ${#packages[@]} -gt 0 ] || usage

  enable_deb_src
  mkdir -p "$out"
  cd "$out"
  local failed=0 p dsc name
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
}

enable_deb_src() {
  if apt-get indextargets 2>/dev/null | grep -q 'Created-By: Sources'; then
    return 0
  fi
  local sudo=""
  [ "$(id -u)" -eq 0 ] || sudo="sudo"
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

# ---- sync ----------------------------------------------------------------------------------

# The source name of a package name as the index identifies packages: NAME for NAME_VERSION
# where VERSION starts with a digit (the first such underscore), else the whole name. Shared by
# the awk programs below.
source_name_awk='function source_name(full) { return match(full, /_[0-9]/) > 1 ? substr(full, 1, RSTART - 1) : full }'

# Writes one Sources index, decompressed, to standard output.
cat_index() {
  case "$1" in
    *.gz) gzip -dc -- "$1" ;;
    *.xz) xz -dc -- "$1" ;;
    *.bz2) bzip2 -dc -- "$1" ;;
    *.lz4|*.zst) /usr/lib/apt/apt-helper cat-file "$1" ;;
    *) cat -- "$1" ;;
  esac
}

# Sources stanzas to wanted lines "SOURCE<TAB>FULL<TAB>VERSION<TAB>CHECKSUMS", FULL being the name
# of the .dsc without .dsc (the version without its epoch: 1:2.3-4 is in pkg_2.3-4.dsc) and
# CHECKSUMS "FILE=SHA256 ..." from Checksums-Sha256 (or "-"). Extra-Source-Only stanzas are old
# versions the archive keeps for Built-Using, not the package's current source: skipped.
sources_to_wanted() {
  awk '
    function flush(   dsc, n, i, parts, sums) {
      if (package != "" && version != "" && extra != "yes") {
        dsc = ""; sums = ""
        n = split(files, parts, "\n")
        for (i = 1; i <= n; i++) if (parts[i] ~ /\.dsc$/) dsc = parts[i]
        n = split(checksums, parts, "\n")
        for (i = 1; i <= n; i++) if (parts[i] != "") sums = sums (sums == "" ? "" : " ") parts[i]
        if (dsc == "") { dsc = version; sub(/^[0-9]+:/, "", dsc); dsc = package "_" dsc ".dsc" }
        sub(/\.dsc$/, "", dsc)
        printf "%s\t%s\t%s\t%s\n", package, dsc, version, sums == "" ? "-" : sums
      }
      package = version = extra = files = checksums = field = ""
    }
    /^[ \t]*$/ { flush(); next }
    /^[ \t]/ {
      if (field == "files") files = files "\n" $3
      else if (field == "checksums-sha256") checksums = checksums "\n" $3 "=" $1
      next
    }
    {
      field = tolower(substr($0, 1, index($0, ":") - 1))
      value = substr($0, index($0, ":") + 1); gsub(/^[ \t]+|[ \t]+$/, "", value)
      if (field == "package") package = value
      else if (field == "version") version = value
      else if (field == "extra-source-only") extra = tolower(value)
    }
    END { flush() }'
}

# Keeps the highest version of each source among wanted lines (sorted by source on input).
highest_versions() {
  local source full version sums kept="" kept_line=""
  while IFS=$'\t' read -r source full version sums; do
    if [ "$source" = "$kept" ]; then
      if dpkg --compare-versions "$version" gt "$(cut -f3 <<<"$kept_line")"; then
        kept_line="$source"$'\t'"$full"$'\t'"$version"$'\t'"$sums"
      fi
      continue
    fi
    [ -z "$kept_line" ] || printf '%s\n' "$kept_line"
    kept="$source"
    kept_line="$source"$'\t'"$full"$'\t'"$version"$'\t'"$sums"
  done
  [ -z "$kept_line" ] || printf '%s\n' "$kept_line"
}

# .dsc paths (standard input) to wanted lines "SOURCE<TAB>FULL<TAB>-<TAB>PATH".
dscs_to_wanted() {
  awk "$source_name_awk"'
    /^[ \t]*$/ { next }
    {
      full = $0; sub(/.*\//, "", full); sub(/\.dsc$/, "", full)
      printf "%s\t%s\t-\t%s\n", source_name(full), full, $0
    }'
}

# The plan from the held names (file $1) and the wanted lines (file $2), one change a line,
# ordered by source name: "add NEW", "replace OLD[,OLD...] NEW", "remove OLD". A source held in
# several versions keeps the wanted one and loses the others; an add of a held source replaces
# every version of it.
plan() {
  awk -F '\t' "$source_name_awk"'
    FILENAME == ARGV[1] {
      if ($0 ~ /^[ \t]*$/) next
      s = source_name($0); held[$0] = 1
      if (s in versions) versions[s] = versions[s] "," $0
      else versions[s] = $0
      next
    }
    { wanted[$1] = $2 }
    END {
      for (s in wanted) {
        if (!(s in versions)) { print s "\tadd " wanted[s]; continue }
        if (wanted[s] in held) {
          n = split(versions[s], old, ",")
          for (i = 1; i <= n; i++) if (old[i] != wanted[s]) print s "\tremove " old[i]
        } else {
          print s "\treplace " versions[s] " " wanted[s]
        }
      }
      for (s in versions) {
        if (s in wanted) continue
        n = split(versions[s], old, ",")
        for (i = 1; i <= n; i++) print s "\tremove " old[i]
      }
    }' "$1" "$2" | LC_ALL=C sort -t $'\t' -k1,1 -k2,2 | cut -f2
}

# The files a .dsc names (its Files and Checksums-* sections), one a line.
dsc_files() {
  awk '/^[^ \t]/ { section = $1 } /^[ \t]/ && section ~ /^(Files|Checksums-[A-Za-z0-9]+):$/ && NF == 3 { print $3 }' "$1" |
    LC_ALL=C sort -u
}

# Deletes from the download folder $1 the packages the index no longer holds (names $2...): each
# .dsc and the files it names that no other .dsc there names (revisions share an orig tarball).
# The folder then holds what the index holds, so that indexing it from scratch gives the same.
prune_downloads() {
  local dir="$1" full other file
  shift
  for full in "$@"; do
    [ -f "$dir/$full.dsc" ] || continue
    dsc_files "$dir/$full.dsc" >"$tmp/gone-files"
    for other in "$dir"/*.dsc; do
      [ "$other" = "$dir/$full.dsc" ] || dsc_files "$other"
    done | LC_ALL=C sort -u >"$tmp/kept-files"
    while read -r file; do
      case "$file" in */*|.*|"") continue ;; esac
      rm -f -- "${dir:?}/$file"
    done < <(LC_ALL=C comm -23 "$tmp/gone-files" "$tmp/kept-files")
    rm -f -- "$dir/$full.dsc"
    echo "sync: deleted the download of $full" >&2
  done
}

# Writes file $1 to standard output; '-' is standard input.
read_input() {
  if [ "$1" = - ]; then cat; else cat -- "$1"; fi
}

# Checks a downloaded package against its Sources stanza's Checksums-Sha256 ("-": the .dsc only).
verify_download() {
  local dir="$1" full="$2" sums="$3" entry file
  [ -f "$dir/$full.dsc" ] || return 1
  [ "$sums" = "-" ] && return 0
  for entry in $sums; do
    file="${entry%=*}"
    [ -f "$dir/$file" ] || return 1
    [ "$(sha256sum -- "$dir/$file" | cut -d' ' -f1)" = "${entry##*=}" ] || return 1
  done
}

sync_main() {
  local index="" download="" held_file="" trigrep="$here/../trigrep" lock=""
  local max_changes=100 force=0 dry_run=0 plan_only=0 apt_sources=0
  local sources=() dsc_list="" dsc_dir="" packages_file=""
  while [ $# -gt 0 ]; do
    case "$1" in
      --index) index="${2:?--index takes a folder}"; shift ;;
      --sources) sources+=("${2:?--sources takes a file}"); shift ;;
      --apt-sources) apt_sources=1 ;;
      --dsc-list) dsc_list="${2:?--dsc-list takes a file}"; shift ;;
      --dsc-dir) dsc_dir="${2:?--dsc-dir takes a folder}"; shift ;;
      --packages) packages_file="${2:?--packages takes a file}"; shift ;;
      --download) download="${2:?--download takes a folder}"; shift ;;
      --max-changes) max_changes="${2:?--max-changes takes a number}"; shift ;;
      --force) force=1 ;;
      --dry-run) dry_run=1 ;;
      --plan-only) plan_only=1 ;;
      --held) held_file="${2:?--held takes a file}"; shift ;;
      --trigrep) trigrep="${2:?--trigrep takes a program}"; shift ;;
      --lock) lock="${2:?--lock takes a file}"; shift ;;
      -h|--help) usage ;;
      *) echo "sync: unknown argument '$1' (--help lists them)" >&2; exit 2 ;;
    esac
    shift
  done
  local modes=$(( (${#sources[@]} > 0) + apt_sources + (${#dsc_list} > 0) + (${#dsc_dir} > 0) ))
  if [ $modes -ne 1 ]; then
    echo "sync: name the wanted set once: --sources FILE..., --apt-sources, --dsc-list FILE or --dsc-dir DIR" >&2
    exit 2
  fi
  if ! [[ "$max_changes" =~ ^[0-9]{1,9}$ ]]; then
    echo "sync: --max-changes takes a number, got '$max_changes'" >&2
    exit 2
  fi
  if [ $plan_only -eq 1 ]; then
    [ -n "$held_file" ] || { echo "sync: --plan-only reads the held packages from --held FILE ('-': standard input)" >&2; exit 2; }
  else
    [ -n "$index" ] || { echo "sync: --index DIR is required" >&2; exit 2; }
    [ -z "$held_file" ] || { echo "sync: --held goes with --plan-only; a sync reads the index" >&2; exit 2; }
    if [ $dry_run -eq 0 ] && [ $modes -eq 1 ] && [ -z "$dsc_list$dsc_dir" ] && [ -z "$download" ]; then
      echo "sync: --sources and --apt-sources need --download DIR for the packages they fetch" >&2
      exit 2
    fi
  fi

  local tmp
  tmp="$(mktemp -d "${TMPDIR:-/tmp}/trigrep-sync.XXXXXX")"
  # shellcheck disable=SC2064
  trap "rm -rf '$tmp'" EXIT

  if [ $plan_only -eq 0 ]; then
    if [ ! -d "$index" ]; then
      echo "sync: no index at $index: build one first (./trigrep index --out $index ...)" >&2
      exit 5
    fi
    lock="${lock:-$index/.sync.lock}"
    exec 9>>"$lock"
    if ! flock -n 9; then
      echo "sync: another sync of $index is running (it holds $lock)" >&2
      exit 4
    fi
  fi

  # The wanted set.
  if [ $apt_sources -eq 1 ]; then
    local f
    while read -r f; do
      [ -f "$f" ] && sources+=("$f")
    done < <(apt-get indextargets --format '$(FILENAME)' 'Created-By: Sources' 2>/dev/null)
    if [ ${#sources[@]} -eq 0 ]; then
      echo "sync: apt has no Sources index: enable deb-src entries (indexer/fetch-debian-sources.sh does it) and run apt-get update" >&2
      exit 5
    fi
  fi
  if [ ${#sources[@]} -gt 0 ]; then
    local s
    for s in "${sources[@]}"; do
      if ! cat_index "$s" | sources_to_wanted >>"$tmp/stanzas"; then
        echo "sync: cannot read the Sources index $s" >&2
        exit 5
      fi
    done
    LC_ALL=C sort -t $'\t' -k1,1 "$tmp/stanzas" | highest_versions >"$tmp/wanted"
  elif [ -n "$dsc_dir" ]; then
    [ -d "$dsc_dir" ] || { echo "sync: --dsc-dir $dsc_dir is not a folder" >&2; exit 5; }
    find "$(cd "$dsc_dir" && pwd)" -maxdepth 1 -name '*.dsc' -xtype f | dscs_to_wanted >"$tmp/wanted"
  else
    if ! read_input "$dsc_list" | dscs_to_wanted >"$tmp/wanted"; then
      echo "sync: cannot read the .dsc list $dsc_list" >&2
      exit 5
    fi
  fi
  if [ -n "$packages_file" ]; then
    read_list "$packages_file" >"$tmp/only" || { echo "sync: cannot read --packages $packages_file" >&2; exit 5; }
    awk -F '\t' 'FILENAME == ARGV[1] { only[$0] = 1; next } $1 in only' "$tmp/only" "$tmp/wanted" >"$tmp/filtered"
    cut -f1 "$tmp/filtered" | LC_ALL=C sort -u | LC_ALL=C comm -13 - <(LC_ALL=C sort -u "$tmp/only") |
      while read -r missing; do echo "sync: $missing is not in the wanted set: it is removed if the index holds it" >&2; done
    mv "$tmp/filtered" "$tmp/wanted"
  fi
  # A source named twice in a .dsc list: the highest version wins there too.
  if [ -n "$dsc_list$dsc_dir" ]; then
    awk -F '\t' -v OFS='\t' '{ $3 = substr($2, length($1) + 2); print }' "$tmp/wanted" |
      LC_ALL=C sort -t $'\t' -k1,1 | highest_versions | awk -F '\t' -v OFS='\t' '{ $3 = "-"; print }' >"$tmp/w2"
    mv "$tmp/w2" "$tmp/wanted"
  fi

  # The held set.
  if [ $plan_only -eq 1 ]; then
    if ! read_input "$held_file" >"$tmp/held"; then
      echo "sync: cannot read --held $held_file" >&2
      exit 5
    fi
  elif ! "$trigrep" segments --index "$index" --packages >"$tmp/held"; then
    echo "sync: '$trigrep segments --index $index --packages' failed; nothing changed" >&2
    exit 5
  fi

  plan "$tmp/held" "$tmp/wanted" >"$tmp/plan"
  local wanted_count held_count changes
  wanted_count=$(wc -l <"$tmp/wanted")
  held_count=$(grep -c . "$tmp/held" || true)
  changes=$(wc -l <"$tmp/plan")
  if [ "$changes" -eq 0 ]; then
    echo "sync: up to date: the index holds the $wanted_count wanted packages, nothing to do" >&2
    exit 0
  fi
  cat "$tmp/plan"
  echo "sync: $(grep -c '^add ' "$tmp/plan" || true) to add, $(grep -c '^replace ' "$tmp/plan" || true) to replace," \
    "$(grep -c '^remove ' "$tmp/plan" || true) to remove; $wanted_count wanted, $held_count held" >&2
  if [ "$wanted_count" -eq 0 ] && [ $force -eq 0 ]; then
    echo "sync: refusing: the wanted set is empty and would remove all $held_count packages (--force applies it)" >&2
    exit 3
  fi
  if [ "$changes" -gt "$max_changes" ] && [ $force -eq 0 ]; then
    echo "sync: refusing: $changes changes exceed --max-changes $max_changes (--force applies them)" >&2
    exit 3
  fi
  if [ $plan_only -eq 1 ] || [ $dry_run -eq 1 ]; then
    echo "sync: dry run, nothing changed" >&2
    exit 0
  fi

  # Fetch and verify what is added, then one update.
  local args=() applied=() gone=() olds=() failed=0 kind old new source full version origin message
  if [ -n "$download" ]; then
    mkdir -p "$download"
    download="$(cd "$download" && pwd)"
  fi
  declare -A origin_of version_of source_of
  while IFS=$'\t' read -r source full version origin; do
    source_of[$full]="$source"
    origin_of[$full]="$origin"
    version_of[$full]="$version"
  done <"$tmp/wanted"
  while read -r kind old new; do
    case "$kind" in
      remove) args+=(--remove "$old"); applied+=("removed $old"); gone+=("$old"); continue ;;
      add) new="$old"; message="added $new" ;;
      replace) message="replaced $old with $new" ;;
    esac
    if [ "${version_of[$new]}" = - ]; then
      if [ ! -r "${origin_of[$new]}" ]; then
        echo "sync: cannot read ${origin_of[$new]}; $new stays as it is" >&2
        failed=$((failed + 1))
        continue
      fi
      args+=(--add "${origin_of[$new]}")
      applied+=("$message")
      continue
    fi
    source="${source_of[$new]}"
    if ! verify_download "$download" "$new" "${origin_of[$new]}"; then
      echo "sync: downloading $source=${version_of[$new]}" >&2
      (cd "$download" && apt-get source --download-only -q "$source=${version_of[$new]}") >&2 || true
      if ! verify_download "$download" "$new" "${origin_of[$new]}"; then
        echo "sync: could not download $new, or its files do not match the Sources index; it stays as it is" >&2
        failed=$((failed + 1))
        continue
      fi
    fi
    args+=(--add "$download/$new.dsc")
    applied+=("$message")
    if [ "$kind" = replace ]; then
      IFS=, read -r -a olds <<<"$old"
      gone+=("${olds[@]}")
    fi
  done <"$tmp/plan"
  if [ ${#args[@]} -eq 0 ]; then
    echo "sync: nothing could be fetched; nothing changed" >&2
    exit 1
  fi

  local status=0
  "$trigrep" update --index "$index" "${args[@]}" || status=$?
  case $status in
    0|1)
      local line
      for line in "${applied[@]}"; do
        echo "sync: $line" >&2
      done
      # After a partial update (1) an old version may still be indexed: its files stay.
      if [ -n "$download" ] && [ $status -eq 0 ]; then
        prune_downloads "$download" "${gone[@]}"
      fi
      echo "sync: done: ${#applied[@]} changes applied, $failed packages could not be fetched" >&2
      [ $status -eq 0 ] && [ $failed -eq 0 ] || exit 1
      ;;
    *)
      echo "sync: '$trigrep update' failed (exit $status); nothing changed" >&2
      exit 5
      ;;
  esac
}

if [ "${1:-}" = "--sync" ]; then
  shift
  sync_main "$@"
else
  fetch_main "$@"
fi
