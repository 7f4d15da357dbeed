# The wire contract between the frontend and the source backends.
#
# A connection carries Requests from the frontend, one at a time, each answered
# by a stream of Response messages from the backend, all in the standard stream
# framing (segment table, then segments; see
# proto/src/main/java/io/trigrep/proto/package-info.java). A search stream ends
# with exactly one `done` or `error`; a fetchFile or ping request is answered by
# one message.
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
  }
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
}

struct Filter {
  kind @0 :Kind;
  negated @1 :Bool;
  value @2 :Text;            # a regex for package and path, a language name for filetype

  enum Kind {
    package @0;
    path @1;
    filetype @2;
  }
}

struct FetchFile {
  package @0 :Text;
  path @1 :Text;             # relative to the package, '/'-separated
}

struct Response {
  union {
    result @0 :Result;
    progress @1 :Progress;
    done @2 :Done;
    error @3 :Failure;
    file @4 :File;
    status @5 :Status;
  }
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
  content @2 :Data;
}

struct Status {
  shard @0 :Text;
  files @1 :UInt64;
  bytes @2 :UInt64;
  queriesInFlight @3 :UInt32;
  formatVersion @4 :UInt32;
}
