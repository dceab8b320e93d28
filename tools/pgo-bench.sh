#!/usr/bin/env bash
# pgo-bench.sh: builds delaycc-bench with profile-guided optimisation into target/pgo/release/ (`make
# bench` runs it; docs/performance.md, "Profile-guided build", has the figures and why).
#
# 1. An instrumented build (target/pgo-gen) counts how often every branch and call runs.
# 2. It runs the training workload: every scenario file under scenarios/ (the papers' experiments and the
#    rest) and every bench line for 2 simulated seconds. The scenarios are there so that the profile is
#    not the bench's alone: trained on them only, the build is 8 % faster on the scenarios themselves.
# 3. The counts are merged (llvm-profdata, from rustup's llvm-tools component, added here when missing)
#    and the final build (target/pgo) lays out and inlines the code by them.
# The optimised build must compute exactly what the plain one does: the script compares their digests
# of every scenario and bench line and removes the optimised binary if they differ.
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD

sysroot=$(rustc --print sysroot)
host=$(rustc -vV | sed -n 's/^host: //p')
profdata="$sysroot/lib/rustlib/$host/bin/llvm-profdata"
if [ ! -x "$profdata" ]; then
    echo "pgo-bench: adding rustup's llvm-tools component (llvm-profdata)"
    rustup component add llvm-tools >/dev/null
fi
[ -x "$profdata" ] || { echo "pgo-bench: no llvm-profdata at $profdata after 'rustup component add llvm-tools'" >&2; exit 1; }

gen=$root/target/pgo-gen
raw=$gen/profiles
rm -rf "$raw"
mkdir -p "$raw" "$root/target/pgo"
echo "pgo-bench: instrumented build"
CARGO_TARGET_DIR=$gen RUSTFLAGS="-Cprofile-generate=$raw" \
    cargo build --release --locked --quiet -p delaycc-sim --bin delaycc-bench

echo "pgo-bench: training run (every scenario, every bench line for 2 s)"
bench=$gen/release/delaycc-bench
export LLVM_PROFILE_FILE="$raw/run-%p.profraw"
find scenarios -name '*.toml' ! -path 'scenarios/sweeps/*' ! -name suite.toml | sort | while read -r f; do
    "$bench" "$f" >/dev/null || { echo "pgo-bench: training run of $f failed" >&2; exit 1; }
done
for line in $("$bench" --list); do
    "$bench" --only "$line" --seconds 2 >/dev/null
done
unset LLVM_PROFILE_FILE

merged=$root/target/pgo/delaycc.profdata
"$profdata" merge -o "$merged.tmp" "$raw"
mv "$merged.tmp" "$merged"

echo "pgo-bench: optimised build"
CARGO_TARGET_DIR=$root/target/pgo RUSTFLAGS="-Cprofile-use=$merged" \
    cargo build --release --locked --quiet -p delaycc-sim --bin delaycc-bench

# Profile-guided optimisation must not change a single output: both builds' digests of every scenario
# and bench line (`delaycc-bench --digest`) must be identical, or the optimised build is not used.
echo "pgo-bench: comparing its digests with the plain build's"
cargo build --release --locked --quiet -p delaycc-sim --bin delaycc-bench
mapfile -t scenarios < <(find scenarios -name '*.toml' ! -path 'scenarios/sweeps/*' ! -name suite.toml | sort)
if ! cmp -s <(target/release/delaycc-bench --digest "${scenarios[@]}") \
    <(target/pgo/release/delaycc-bench --digest "${scenarios[@]}"); then
    rm -f target/pgo/release/delaycc-bench
    echo "pgo-bench: the optimised build's outputs differ from the plain build's; removed it" >&2
    exit 1
fi
echo "pgo-bench: target/pgo/release/delaycc-bench (outputs identical to target/release/delaycc-bench)"
