# The wire contract between the frontend and the source backends.
#
# A connection carries Requests from the frontend, one at a time, each answered
# by a stream of Response messages from the backend, all in the standard stream
# framing (segment table, then segments; see
# proto/src/main/java/io/trigrep/proto/package-info.java). A search stream ends
# with exactly one `done` or `error`; a fetchFile, ping or heartbeat request is
# answered by one message.
#
# Compatibility: fields are only ever added, with new ordinals; an older reader
# sees a newer field as absent. The Java bindings next to this file are written
# by hand and SchemaLayoutTest checks them against `capnp compile -ocapnp`.

@0x9381aea5ec47b668;

struct Request {
  union {
    search @0 :SearchRequest;
    fetchFile @1 :FetchFile;
    ping @2 :Void;
    heartbeat @3 :Heartbeat;
  }
}

# A frontend's ping that says who asks and what it has learnt, answered by a status as ping is:
# the backend waits for every frontend heard from lately to have learnt a generation it switched
# to before it tells an update it serves it (frontend/API.md, "Read your writes").
struct Heartbeat {
  frontend @0 :UInt64;       # a random number a frontend process keeps for its life; never 0
  known @1 :UInt64;          # the generation this frontend last learnt of this backend, as Status
                             # says it; 0 while none
}

struct SearchRequest {
  query @0 :Text;            # the query as the user typed it, for logs only
  pattern @1 :Text;          # the regex (or literal) with the filters removed
  literal @2 :Bool;          # pattern is a literal string, not a regex
  caseInsensitive @3 :Bool;
  filters @4 :List(Filter);  # all must hold
  maxResults @5 :UInt32;     # 0 means the backend's own cap
  deadlineMillis @6 :UInt32; # relative to the request's arrival; 0 means the backend's default
  contextLines @7 :UInt8;    # lines before and after each match
  fileResults @8 :Bool;      # answer matching lines as FileResults, each shown line once, not one
                             # Result per line; older backends ignore it and send Results
}

struct Filter {
  kind @0 :Kind;
  negated @1 :Bool;
  value @2 :Text;            # a regex for package and path, a language name for filetype, a branch
                             # (or tag) name for branch

  enum Kind {
    package @0;
    path @1;
    filetype @2;
    branch @3;               # files of git repository packages on that branch; older backends answer
                             # badRequest (an unknown kind)
  }
}

struct FetchFile {
  package @0 :Text;
  path @1 :Text;             # relative to the package, '/'-separated
  # A window of lines (all zero, as older writers send: the whole file):
  firstLine @2 :UInt32;      # 1-based first line of the window; 0 means 1
  maxLines @3 :UInt32;       # lines in the window; 0 means up to the end
  maxLineBytes @4 :UInt32;   # each line cut to this many bytes (at a UTF-8 boundary); 0 means no cut
  # Or, when byteCount > 0, the raw bytes [byteOffset, byteOffset + byteCount) (clamped to the
  # file), the line fields ignored: for streaming a file of any size in bounded pieces.
  byteOffset @5 :UInt64;
  byteCount @6 :UInt32;
  branch @7 :Text;           # a git repository package's branch (or tag) to take the file from, when
                             # its content differs between branches; empty or absent: any branch
}

struct Response {
  union {
    result @0 :Result;
    progress @1 :Progress;
    done @2 :Done;
    error @3 :Failure;
    file @4 :File;
    status @5 :Status;
    fileMatch @6 :FileMatch;
    fileResults @7 :FileResults;
  }
}

# Matching lines of one file with their context, each shown line sent once: a line that is context
# to two matches, or one match's line and another's context, is not repeated, and the package and
# path come once. What a backend sends instead of Result when SearchRequest.fileResults asks; it
# streams a third of Result's bytes on a result-heavy query. A file with many matches comes as
# several of these, each self-contained (its own package, path and lines). Package and path take
# Result's first two pointers, so the frontend reads all result kinds alike to sort them.
struct FileResults {
  package @0 :Text;
  path @1 :Text;             # relative to the package
  lines @2 :Data;            # the shown lines in file order, each followed by one '\n' (a line holds
                             # none: lines are split at '\n'), cut ones as their window (see windows)
  runs @3 :List(LineRun);    # the line numbers of `lines`: consecutive lines of the file form a run
  windows @4 :List(LineWindow); # the lines of `lines` shown cut, in order; empty when none is
  matches @5 :List(LineMatch); # in file order
  ranges @6 :List(Range);    # every match's ranges, match after match (LineMatch.ranges counts each
                             # one's), as UTF-8 byte offsets into its line's shown text
  git @7 :GitRef;            # the file's branches and commit when its package is a git repository; null otherwise
}

struct LineRun {
  first @0 :UInt32;          # 1-based number of the run's first line
  count @1 :UInt32;          # lines in the run
}

struct LineWindow {
  line @0 :UInt32;           # index in FileResults.lines
  start @1 :UInt32;          # byte offset in the full line where the shown text begins
  bytes @2 :UInt32;          # the full line's length, without its terminator
}

struct LineMatch {
  line @0 :UInt32;           # index in FileResults.lines of the matching line
  ranking @1 :Float32;       # higher is better
  ranges @2 :UInt32;         # how many of FileResults.ranges, in order, are this match's
  before @3 :UInt8;          # context lines before: the lines just before `line` in FileResults.lines
  after @4 :UInt8;           # context lines after: the lines just after it
  symbol @5 :Symbol;         # a sym: query's result: the definition on this line; null otherwise
}

# A file as a result of its own: one whose path a file-name query (path: or file:
# with no pattern) matched, or one a boolean query holds for with no line of a
# positive operand to show. Package and path take Result's first two pointers,
# so the frontend reads both kinds alike to sort them.
struct FileMatch {
  package @0 :Text;
  path @1 :Text;             # relative to the package
  ranking @2 :Float32;       # higher is better
  bytes @3 :UInt64;          # the file's size
  language @4 :Text;         # its file type as filetype: names it (c, python, ...); empty when unknown
  git @5 :GitRef;            # the file's branches and commit when its package is a git repository; null otherwise
}

struct Result {
  package @0 :Text;
  path @1 :Text;             # relative to the package
  line @2 :UInt32;           # 1-based number of the matching line
  before @3 :List(Text);     # context lines before, oldest first
  context @4 :Text;          # the matching line, without its line terminator
  after @5 :List(Text);      # context lines after
  ranges @6 :List(Range);    # every match on the line, as UTF-8 byte offsets into context
  ranking @7 :Float32;       # higher is better
  # Long lines are cut to a window (see package-info, "Long lines"). Older writers leave these
  # zero or empty, which reads as "nothing cut".
  contextStart @8 :UInt32;   # byte offset in the full matching line where `context` begins
  lineBytes @9 :UInt32;      # the full matching line's length; context was cut at the end when
                             # contextStart + len(context) < lineBytes; 0 means not cut
  beforeBytes @10 :List(UInt32); # empty when no line of `before` was cut; else the full length
                                 # of each line of `before` (each shown as a prefix)
  afterBytes @11 :List(UInt32);  # likewise for `after`
  symbol @12 :Symbol;        # a sym: query's result: the definition on this line; null otherwise
  git @13 :GitRef;           # the file's branches and commit when its package is a git repository; null otherwise
}

# Where a result's file is in a git repository package (the package is the repository).
struct GitRef {
  branches @0 :List(Text);   # the indexed branches (or tags) holding this content at this path, in the
                             # order they were indexed in
  commit @1 :Text;           # the commit of the first of them, 40 hex digits
  links @2 :Text;            # the repository's link template: {repo} {branch} {commit} {path} {line}
                             # stand for the package, the first branch, commit, path and a line; empty for none
}

# A definition, as universal-ctags reports it.
struct Symbol {
  name @0 :Text;
  kind @1 :Text;             # ctags' kind name: function, struct, macro, variable, ...
  scope @2 :Text;            # the enclosing scope (struct S for a member of S); empty for none
  language @3 :Text;         # ctags' language name: C, C++, Python, ...
}

struct Range {
  start @0 :UInt32;          # inclusive
  end @1 :UInt32;            # exclusive
}

struct Progress {
  filesSearched @0 :UInt64;
  candidateFiles @1 :UInt64;
  totalFiles @2 :UInt64;
  results @3 :UInt64;
}

struct Done {
  results @0 :UInt64;
  filesSearched @1 :UInt64;
  candidateFiles @2 :UInt64;
  totalFiles @3 :UInt64;
  elapsedNanos @4 :UInt64;
  truncation @5 :Truncation;
  fullScan @6 :Bool;         # no trigram could be extracted: every file was searched
  generation @7 :UInt64;     # the generation of the shard the search ran on, as Status.generation

  enum Truncation {
    none @0;
    maxResults @1;
    deadline @2;
  }
}

struct Failure {
  code @0 :Code;
  message @1 :Text;
  position @2 :UInt32;       # 1-based character position in the query; 0 when none applies

  enum Code {
    internal @0;
    badRequest @1;
    badQuery @2;
    overloaded @3;
    notFound @4;
  }
}

struct File {
  package @0 :Text;
  path @1 :Text;
  content @2 :Data;          # the whole file, the window's lines (each with its newline, if it had
                             # one; cut lines cut), or the byte range asked for
  firstLine @3 :UInt32;      # the window's first line (1-based); 0 for a byte range
  totalLines @4 :UInt32;     # lines in the whole file (a last line without newline counts); 0 for a byte range
  totalBytes @5 :UInt64;     # bytes in the whole file
  cuts @6 :List(LineCut);    # the window's lines that were cut, in order
}

struct LineCut {
  line @0 :UInt32;           # 1-based line number
  bytes @1 :UInt32;          # the line's full length in bytes, without its newline
}

struct Status {
  shard @0 :Text;
  files @1 :UInt64;
  bytes @2 :UInt64;
  queriesInFlight @3 :UInt32;
  formatVersion @4 :UInt32;
  skipped @5 :List(Skipped); # what the indexer left out of this shard, by reason; empty when unknown
  generation @6 :UInt64;     # which state of the shard this is: its index's generation number when the
                             # index has generations (updates, merges), else its manifest's builtAtMillis;
                             # answers cached from another generation are stale; 0 when unknown
  segments @7 :UInt32;       # live segments of the shard (1 for a shard without generations)
  deletedFiles @8 :UInt64;   # files of its segments deleted by updates and not yet merged away
}

struct Skipped {
  reason @0 :Text;           # lower case, as in the shard's manifest.json: binary, too_large, ...
  files @1 :UInt64;
  bytes @2 :UInt64;
}
