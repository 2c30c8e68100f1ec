#!/usr/bin/env bash
# Runs the class-file fuzzer for a bounded time on a seed corpus of class
# files and a jar that javac and jar make here. Fails when the fuzzer finds a
# crash, a leak, undefined behaviour or a hang.
#   run_fuzzer.sh FUZZER VERIFIER_SOURCE SECONDS
set -euo pipefail
fuzzer="$1"
verifier_source="$2"
seconds="$3"
work="$(mktemp -d "${TMPDIR:-/tmp}/tracespec-fuzz-XXXXXX")"
trap 'rm -rf "$work"' EXIT
mkdir -p "$work/src" "$work/classes" "$work/corpus"
cat > "$work/src/Seed.java" <<'JAVA'
import java.util.function.IntSupplier;
public class Seed implements Runnable {
  static final long BIG = 1L << 40;
  static final double HALF = 0.5;
  private int[][] grid = new int[2][3];
  public void run() {}
  int work(int x, String s) {
    try {
      switch (x) { case 1: return 2; case 1000: return 3; default: x = x / (x - 7); }
    } catch (ArithmeticException e) { x = -1; }
    IntSupplier f = () -> grid.length;
    return x + f.getAsInt() + s.length() + ("" + x).length();
  }
}
JAVA
javac -nowarn -g -parameters -d "$work/classes" "$work/src/Seed.java" "$verifier_source"
javac -nowarn -g:none --release 8 -d "$work/classes8" "$work/src/Seed.java"
i=0
for class in $(find "$work/classes" "$work/classes8" -name '*.class'); do
  cp "$class" "$work/corpus/seed$i.class"
  i=$((i + 1))
done
(cd "$work/classes" && jar cf "$work/corpus/seed.jar" .)
(cd "$work/classes8" && jar cf0 "$work/corpus/stored.jar" .)
# -close_fd_mask keeps the log short; the exit status says whether it found anything.
exec "$fuzzer" -max_total_time="$seconds" -timeout=10 -rss_limit_mb=2048 -max_len=65536 \
  -print_final_stats=1 -close_fd_mask=1 "$work/corpus"
