#!/bin/sh
# Run the libFuzzer targets of a CC_FUZZ build: first every saved input of tests/fuzz/regress/
# (each a crash once found, now a regression test), then SECONDS of fuzzing per target from a
# copy of tests/fuzz/corpus/ (the copy grows under BUILD/corpus; the tree is not touched).
# A crash, a leak or a sanitizer report fails the run (the input is kept in BUILD/findings/);
# a slow input (over 30 s: a script may ask for a lot of legitimate work) is counted and kept
# but neither fails the run nor ends it (libFuzzer's fork mode, -ignore_timeouts). JOBS
# targets (default 2) run side by side, each on one CPU, so the run takes about
# SECONDS x targets / JOBS.
#   sh tests/fuzz/run.sh BUILD SECONDS [JOBS]
set -u
build=$1
seconds=$2
jobs=${3:-2}
here=$(dirname "$0")
mkdir -p "$build/findings"

# one target: its regression inputs, then SECONDS of fuzzing; a line on stdout (stderr for a
# failure) and exit status 0 or 1
fuzz_target() {
    target=$1
    bin="$build/fuzz_$target"
    regress=$(find "$here/regress/$target" -type f 2>/dev/null | sort)
    if [ -n "$regress" ]; then
        if ! "$bin" $regress > "$build/findings/$target.regress.log" 2>&1; then
            echo "fuzz_$target: a regression input fails again (see $build/findings/$target.regress.log)" >&2
            return 1
        fi
    fi
    mkdir -p "$build/corpus/$target"
    cp "$here/corpus/$target/"* "$build/corpus/$target/"
    "$bin" "$build/corpus/$target" -fork=1 -ignore_timeouts=1 -max_total_time="$seconds" -timeout=30 \
        -rss_limit_mb=4096 -max_len=4096 -error_exitcode=77 -artifact_prefix="$build/findings/$target-" \
        > "$build/findings/$target.log" 2>&1
    rc=$?
    # fork mode exits with the timeout status (70) when the time runs out while a job is still on
    # a slow input: slow inputs are kept, not failures (above)
    if [ $rc -eq 70 ]; then rc=0; fi
    last=$(grep -E '^#[0-9]+: cov' "$build/findings/$target.log" | tail -1)
    runs=$(echo "$last" | sed -n 's/^#\([0-9]*\):.*/\1/p')
    counts=$(echo "$last" | sed -n 's/.*oom\/timeout\/crash: \([0-9\/]*\).*/\1/p')
    if [ $rc -eq 0 ]; then
        echo "fuzz_$target: ${runs:-?} runs in ${seconds} s, $(ls "$build/corpus/$target" | wc -l) inputs in the corpus," \
             "oom/timeout/crash ${counts:-0/0/0} (slow inputs kept in $build/findings/)"
        return 0
    fi
    echo "fuzz_$target: FINDING (exit $rc), input in $build/findings/, log $build/findings/$target.log" >&2
    return 1
}

status=0
pids=""
for target in points obj lua json; do
    fuzz_target "$target" &
    pids="$pids $!"
    if [ $(echo $pids | wc -w) -ge "$jobs" ]; then   # a wave is full: wait for all of it
        for p in $pids; do wait "$p" || status=1; done
        pids=""
    fi
done
for p in $pids; do wait "$p" || status=1; done
exit $status
