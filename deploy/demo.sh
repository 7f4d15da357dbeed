# ./trigrep demo: a whole trigrep on one machine, from a fresh clone, in one command.
# Sourced by the launcher, which defines $root, build_module and the roles it starts.

demo_usage() {
  cat <<'USAGE'
usage: ./trigrep demo [OPTIONS]

Indexes a corpus into shards (once; a second run reuses them), starts one backend per shard and
the frontend on loopback, waits until the frontend is ready and prints its URL. Ctrl-C (or
SIGTERM, or SIGHUP when the terminal closes) stops every process it started, and so does the demo
ending for any other reason. If the stack is not ready in time, it says so, stops everything and
exits with status 1.

corpus (default: the -sources.jar of every library trigrep runs on, fetched with Maven):
  --corpus PATH      index PATH instead: a folder of packages, an archive or a .dsc (repeatable)
  --debian PKG,...   fetch these Debian source packages (apt-get source; needs root or sudo once)
  --jdk              the running JDK's lib/src.zip
  --git REPO         a git repository, one package read from its object database: a local clone,
                     a bare repository or a URL (mirrored into DATA/git-cache), optionally
                     REPO@BRANCH,BRANCH to index several branches (repeatable; default its HEAD).
                     Results link to the code host when the remote is a known one; a second run
                     re-indexes only repositories whose branches moved

  --data DIR         corpus, shards, query files and logs (env TRIGREP_DEMO_DIR; default target/demo)
  --port P           frontend HTTP port, 0 for any free one (env TRIGREP_DEMO_PORT; default 8080)
  --shards N         number of shards, one backend each (default 3)
  --reindex          build the shards again even if the corpus did not change
  --ready-seconds S  give up when the frontend is not ready S seconds after it started
                     (env TRIGREP_DEMO_READY_SECONDS; default 120). Ready includes each
                     backend verifying its shard and warming up, then the frontend warming up
                     (--warmup-ms: up to 2 s a backend, then 1.2 s the frontend)
USAGE
}

# Waits until FILE has a line matching the extended regex RE and prints it. Fails when PID exits
# first, or after SECONDS.
demo_await_log() {
  local file="$1" re="$2" pid="$3" seconds="$4" line i
  for ((i = 0; i < seconds * 10; i++)); do
    line="$(grep -E -m1 "$re" "$file" 2>/dev/null || true)"
    if [ -n "$line" ]; then
      printf '%s' "$line"
      return 0
    fi
    kill -0 "$pid" 2>/dev/null || return 1
    sleep 0.1
  done
  return 1
}

demo_pids=()

# Stops every process the demo started (SIGTERM, then SIGKILL to those alive 10 s later) and exits with $1.
# Runs on EXIT too, so a demo that fails half-way leaves nothing running.
demo_stop() {
  trap - INT TERM HUP EXIT
  local p n
  if [ ${#demo_pids[@]} -gt 0 ]; then
    echo "trigrep demo: stopping ${#demo_pids[@]} processes" >&2
    kill -TERM "${demo_pids[@]}" 2>/dev/null || true
    # One 10 s grace for all of them, then SIGKILL to those left.
    for ((n = 0; n < 100; n++)); do
      local alive=0
      for p in "${demo_pids[@]}"; do kill -0 "$p" 2>/dev/null && alive=1; done
      [ "$alive" -eq 1 ] || break
      sleep 0.1
    done
    kill -KILL "${demo_pids[@]}" 2>/dev/null || true
    for p in "${demo_pids[@]}"; do wait "$p" 2>/dev/null || true; done
    echo "trigrep demo: stopped" >&2
    demo_pids=()
  fi
  exit "$1"
}

# Prints where the process started last logs to, for an error message.
demo_log_tail() {
  echo "trigrep demo: $1 did not start; $2 ends with:" >&2
  tail -n 8 "$2" >&2 || true
}

# A --git input as the indexer takes it: a path made absolute (with its @BRANCHES kept), a URL as is.
demo_git_input() {
  local input="$1" path="$1" branches=""
  if [[ "$input" != *://* && "$input" != *@*:* ]]; then
    if [ ! -e "$path" ] && [[ "$input" == *@* ]]; then
      path="${input%@*}"
      branches="@${input##*@}"
    fi
    [ -d "$path" ] || { echo "trigrep demo: no such repository: $path" >&2; return 2; }
    path="$(cd "$path" && pwd)"
    input="$path$branches"
  fi
  printf '%s' "$input"
}

run_demo() {
  local data="${TRIGREP_DEMO_DIR:-$root/target/demo}" port="${TRIGREP_DEMO_PORT:-8080}" shards=3
  local ready_seconds="${TRIGREP_DEMO_READY_SECONDS:-120}"
  local reindex=0 jdk=0 debian="" corpus=() git=() arg
  # Example queries printed at the end, URL-encoded: for the built-in corpus unless another is chosen.
  local examples=("ByteBuf%5Cs%2Bwrite%5Cw%2B" "class+%5Cw%2BDecoder+filetype%3Ajava" "%28%3Fi%29utf-8")
  while [ $# -gt 0 ]; do
    arg="$1"
    case "$arg" in
      --corpus|--debian|--git|--data|--port|--shards|--ready-seconds)
        [ $# -ge 2 ] || { echo "trigrep demo: $arg needs a value" >&2; return 2; } ;;
    esac
    case "$arg" in
      --corpus) [ -e "$2" ] || { echo "trigrep demo: no such corpus: $2" >&2; return 2; }
                corpus+=("$(cd "$(dirname "$2")" && pwd)/$(basename "$2")")
                examples=("TODO%7CFIXME" "%28%3Fi%29copyright" "%5Cbmain%5Cs%2A%5C%28"); shift ;;
      --debian) debian="$2"; shift ;;
      --git) git+=("$(demo_git_input "$2")") || return 2
             examples=("TODO%7CFIXME" "%28%3Fi%29copyright" "%5Cbmain%5Cs%2A%5C%28"); shift ;;
      --jdk) jdk=1 ;;
      --data) data="$2"; shift ;;
      --port) port="$2"; shift ;;
      --shards) shards="$2"; shift ;;
      --ready-seconds) ready_seconds="$2"; shift ;;
      --reindex) reindex=1 ;;
      -h|--help) demo_usage; return 0 ;;
      *) echo "trigrep demo: unknown option '$arg'" >&2; demo_usage >&2; return 2 ;;
    esac
    shift
  done
  if ! [[ "$port" =~ ^[0-9]+$ && "$shards" =~ ^[1-9][0-9]?$ && "$ready_seconds" =~ ^[0-9]+$ ]]; then
    echo "trigrep demo: --port takes a port number, --shards a number from 1 to 99, --ready-seconds a number of seconds" >&2
    return 2
  fi
  mkdir -p "$data/logs" "$data/queries"
  data="$(cd "$data" && pwd)"
  local started=$SECONDS

  if [ ${#corpus[@]} -eq 0 ] && [ -n "$debian" ]; then
    mkdir -p "$data/debian"
    local packages=()
    IFS=',' read -r -a packages <<<"$debian"
    "$root/indexer/fetch-debian-sources.sh" "$data/debian" "${packages[@]}"
    corpus=("$data"/debian/*.dsc)
    examples=("inflateInit2_" "%28%3Fi%29copyright+path%3Adebian%2F" "TODO%7CFIXME+filetype%3Ac")
  elif [ ${#corpus[@]} -eq 0 ] && [ "$jdk" -eq 1 ]; then
    local home
    home="$(java -XshowSettings:properties -version 2>&1 | sed -n 's/^ *java.home = //p')"
    if [ ! -f "$home/lib/src.zip" ]; then
      echo "trigrep demo: $home/lib/src.zip is missing (a JDK that carries its sources has it)" >&2
      return 1
    fi
    # One package per JDK module (java.base, java.desktop, ...), as the zip's top folders are:
    # the whole zip as one package would fill one shard and leave the others empty.
    if [ ! -d "$data/jdk-src" ] || [ "$home/lib/src.zip" -nt "$data/jdk-src" ]; then
      rm -rf "$data/jdk-src"
      mkdir -p "$data/jdk-src"
      echo "trigrep demo: unpacking $home/lib/src.zip" >&2
      (cd "$data/jdk-src" && jar xf "$home/lib/src.zip")
    fi
    corpus=("$data/jdk-src")
    examples=("ConcurrentHashMap" "class+%5Cw%2BException+extends" "%28%3Fi%29todo+package%3Ajava.base")
  elif [ ${#corpus[@]} -eq 0 ] && [ ${#git[@]} -eq 0 ]; then
    corpus=("$data/maven-sources")
  fi

  # One Maven run builds the three roles and, for the built-in corpus, fetches the sources.
  local stale=0 m
  for m in indexer source-backend frontend; do
    if [ ! -f "$root/$m/target/.trigrep-built" ] || [ ! -f "$root/$m/target/classpath.txt" ] ||
       [ -n "$(find "$root/pom.xml" "$root"/*/pom.xml "$root"/*/src/main -newer "$root/$m/target/.trigrep-built" -print -quit 2>/dev/null)" ]; then
      stale=1
    fi
  done
  [ -n "${TRIGREP_SKIP_BUILD:-}" ] && stale=0
  local fetch=0
  [ "${corpus[0]:-}" = "$data/maven-sources" ] && [ -z "$(ls -A "$data/maven-sources" 2>/dev/null)" ] && fetch=1
  if [ "$stale" -eq 1 ] || [ "$fetch" -eq 1 ]; then
    echo "trigrep demo: building trigrep$([ "$fetch" -eq 1 ] && echo " and fetching the sources of the libraries it runs on") (Maven)" >&2
    mkdir -p "$root/target"
    (
      flock 9
      cd "$root"
      goals=(package)
      [ "$fetch" -eq 1 ] && goals+=(dependency:copy-dependencies@demo-sources "-Dtrigrep.demo.corpus=$data/maven-sources")
      mvn -q -B -ntp -DskipTests -pl indexer,source-backend,frontend -am "${goals[@]}" >&2
      for m in proto indexer source-backend frontend; do touch "$root/$m/target/.trigrep-built"; done
    ) 9>"$root/target/.trigrep-build.lock"
  fi
  export TRIGREP_SKIP_BUILD=1

  local inputs=("${corpus[@]}" "${git[@]}")
  # The shards are reused while the corpus list, sizes and times are what they were built from.
  local shard_dir="$data/shards" signature
  # Git repositories are in it by name: a second run updates them, which re-reads only those whose
  # branches moved.
  signature="$(printf '%s\n' "shards=$shards" "${corpus[@]}" "${git[@]}"
    [ ${#corpus[@]} -eq 0 ] || find "${corpus[@]}" -maxdepth 1 -printf '%P %s %T@\n' | sort)"
  if [ "$reindex" -eq 1 ] || [ "$(cat "$shard_dir/corpus.txt" 2>/dev/null)" != "$signature" ]; then
    rm -rf "$shard_dir"
    echo "trigrep demo: indexing ${inputs[*]} into $shards shards" >&2
    "$root/trigrep" index --shards "$shards" --out "$shard_dir" --git-cache "$data/git-cache" "${corpus[@]}" "${git[@]}"
    printf '%s' "$signature" >"$shard_dir/corpus.txt"
  elif [ ${#git[@]} -gt 0 ]; then
    echo "trigrep demo: reusing the shards in $shard_dir; updating the repositories whose branches moved" >&2
    "$root/trigrep" update --index "$shard_dir" --git-cache "$data/git-cache" --add "${git[@]}"
  else
    echo "trigrep demo: reusing the shards in $shard_dir (--reindex builds them again)" >&2
  fi

  # Ctrl-C and SIGTERM are how a user stops the demo: status 0. A closed terminal (HUP) or the
  # demo ending any other way (an error, a failed start) stops the children too.
  trap 'demo_stop 0' INT TERM
  trap 'demo_stop 129' HUP
  trap 'demo_stop $?' EXIT
  local backends="" i line
  # The last run's logs go first, here: a child truncates its log only once it runs, and a
  # "listening on" line of the last run read before that named a port nobody listens on.
  rm -f "$data"/logs/backend-*.log "$data/logs/frontend.log"
  for ((i = 0; i < shards; i++)); do
    "$root/trigrep" backend --shard "$shard_dir/shard-$i" --port 0 >"$data/logs/backend-$i.log" 2>&1 &
    demo_pids+=($!)
  done
  for ((i = 0; i < shards; i++)); do
    if ! line="$(demo_await_log "$data/logs/backend-$i.log" 'listening on' "${demo_pids[$i]}" 120)"; then
      demo_log_tail "backend $i" "$data/logs/backend-$i.log"
      demo_stop 1
    fi
    line="${line#*listening on }"
    backends="${backends:+$backends,}${line%% *}"
  done

  "$root/trigrep" frontend --backends "$backends" --data "$data/queries" --port "$port" \
    >"$data/logs/frontend.log" 2>&1 &
  demo_pids+=($!)
  local frontend_pid="${demo_pids[$shards]}"
  if ! line="$(demo_await_log "$data/logs/frontend.log" 'listening on http' "$frontend_pid" 120)"; then
    demo_log_tail "the frontend" "$data/logs/frontend.log"
    demo_stop 1
  fi
  local url="${line#*listening on }" fport
  url="${url%% *}"
  fport="${url##*:}"
  fport="${fport%/}"
  # Ready means /readyz answered 200 (every backend answers and has verified its shard).
  local ready=0 deadline=$((SECONDS + ready_seconds))
  while ((SECONDS < deadline)); do
    if [ "$(http_status 127.0.0.1 "$fport" /readyz)" = 200 ]; then
      ready=1
      break
    fi
    kill -0 "$frontend_pid" 2>/dev/null || { demo_log_tail "the frontend" "$data/logs/frontend.log"; demo_stop 1; }
    sleep 0.1
  done
  if [ "$ready" -eq 0 ]; then
    echo "trigrep demo: not ready after $ready_seconds s: ${url}readyz did not answer 200 (raise --ready-seconds on a slow machine)" >&2
    echo "trigrep demo: see $data/logs/frontend.log and $data/logs/backend-*.log; the frontend log ends with:" >&2
    tail -n 8 "$data/logs/frontend.log" >&2 || true
    demo_stop 1
  fi

  cat <<READY
trigrep demo: ready in $((SECONDS - started)) s

  open ${url}

  corpus    ${inputs[*]}
  shards    $shard_dir ($(du -sh "$shard_dir" | cut -f1))
  ports     frontend $fport, backends $backends
  queries   $data/queries
  logs      $data/logs

  try:
    ${url}search?q=${examples[0]}
    ${url}search?q=${examples[1]}
    curl '${url}api/v1/search?q=${examples[2]}&per_page=3'

Ctrl-C stops everything.
READY

  # A process that dies on its own takes the demo down with it: half a system only confuses.
  local p
  while true; do
    wait -n "${demo_pids[@]}" 2>/dev/null || true
    for p in "${demo_pids[@]}"; do
      if ! kill -0 "$p" 2>/dev/null; then
        echo "trigrep demo: process $p exited on its own; see $data/logs" >&2
        demo_stop 1
      fi
    done
  done
}
