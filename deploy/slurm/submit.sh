#!/usr/bin/env bash
# Submits a simulation sweep to Slurm: a job array whose task i runs shard i/N of the sweep
# (deploy/slurm/sweep-array.sbatch), and a merge job (deploy/slurm/merge.sbatch) that waits for
# every task to succeed (--dependency=afterok) and writes OUT/merged. See deploy/slurm/README.md.
#
# Usage: deploy/slurm/submit.sh --out DIR --shards N [--workers W] [--max-running K] [--repo DIR]
#                               [--sbatch OPT]... [--parsable]
#                               SCENARIO [sweep options: --set K=V1,V2 ..., --seeds N, --seed-base B]
#   --out DIR         results directory on a filesystem every node shares: DIR/shard-<i>, DIR/merged,
#                     the jobs' logs in DIR/logs
#   --shards N        array tasks (shards) 0 … N-1
#   --workers W       runs at a time per task (default 1); each task asks for W CPUs
#   --max-running K   at most K tasks of the array at once (sbatch --array=0-(N-1)%K)
#   --repo DIR        the repository checkout the nodes run (default: the one this script is in);
#                     the same path on every node, set up with `bash scripts/setup.sh all`
#   --sbatch OPT      one more sbatch option for both jobs, e.g. --sbatch --partition=cpu
#                     --sbatch --time=04:00:00 --sbatch --mem-per-cpu=1G (repeatable); sbatch's
#                     SBATCH_* variables (SBATCH_PARTITION, SBATCH_ACCOUNT, …) apply as well
# The scenario is a name from sim/scenarios (crash-short) or a path relative to the checkout.
# Prints the two job ids; --parsable prints only "ARRAYJOB MERGEJOB".
set -euo pipefail

die() { printf 'submit.sh: %s\n' "$*" >&2; exit 2; }

here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
repo="$(cd "$here/../.." && pwd)"
out="" shards="" workers=1 max="" parsable=0
extra=()
while [ "$#" -gt 0 ]; do
  case "$1" in
    --out) out="${2:?--out needs a directory}"; shift 2 ;;
    --out=*) out="${1#*=}"; shift ;;
    --shards) shards="${2:?--shards needs a number}"; shift 2 ;;
    --shards=*) shards="${1#*=}"; shift ;;
    --workers) workers="${2:?--workers needs a number}"; shift 2 ;;
    --workers=*) workers="${1#*=}"; shift ;;
    --max-running) max="${2:?--max-running needs a number}"; shift 2 ;;
    --max-running=*) max="${1#*=}"; shift ;;
    --repo) repo="${2:?--repo needs a directory}"; shift 2 ;;
    --repo=*) repo="${1#*=}"; shift ;;
    --sbatch) extra+=("${2:?--sbatch needs an sbatch option}"); shift 2 ;;
    --sbatch=*) extra+=("${1#*=}"); shift ;;
    --parsable) parsable=1; shift ;;
    -h | --help) sed -n '2,/^set -euo/{/^set -euo/d;s/^# \{0,1\}//;p}' "${BASH_SOURCE[0]}"; exit 0 ;;
    --) shift; break ;;
    -*) die "unknown option $1 (sweep options go after the scenario)" ;;
    *) break ;;
  esac
done
[ "$#" -ge 1 ] || die "give the scenario (a name from sim/scenarios or a path in the checkout)"
[ -n "$out" ] || die "--out DIR is required (on a filesystem every node shares)"
[[ "$shards" =~ ^[1-9][0-9]*$ ]] || die "--shards must be an integer >= 1, got '${shards}'"
[[ "$workers" =~ ^[1-9][0-9]*$ ]] || die "--workers must be an integer >= 1, got '${workers}'"
[ -z "$max" ] || [[ "$max" =~ ^[1-9][0-9]*$ ]] || die "--max-running must be an integer >= 1, got '${max}'"
for a in "$@"; do
  case "$a" in
    --workers | --workers=* | --shard | --shard=* | --out | --out=*) die "$a is set by submit.sh (use --workers/--shards/--out before the scenario)" ;;
  esac
done
command -v sbatch >/dev/null 2>&1 || die "sbatch not found (Debian: apt-get install slurm-client, or bash scripts/setup.sh slurm)"

# The nodes see the checkout at the same path; where this machine sees it too, check it is ready
# to run (a stale sandbox binary would make every task try to rebuild it with cargo).
case "$repo" in /*) ;; *) repo="$(pwd)/$repo" ;; esac
if [ -d "$repo" ]; then
  [ -f "$repo/scripts/lib/node.sh" ] && [ -d "$repo/sim/scenarios" ] || die "$repo is not a checkout of this repository"
  [ -d "$repo/node_modules" ] || die "$repo has no node_modules: run bash scripts/setup.sh all there"
  [ -x "$repo/target/sandbox/sandbox" ] || die "$repo/target/sandbox/sandbox is missing: cargo build --profile sandbox -p sandbox"
  if [ -n "$(find "$repo/sandbox/src" "$repo/sandbox/build.rs" "$repo/sandbox/Cargo.toml" -newer "$repo/target/sandbox/sandbox" 2>/dev/null | head -n 1)" ]; then
    die "$repo/target/sandbox/sandbox is older than sandbox/ sources: cargo build --profile sandbox -p sandbox"
  fi
  compgen -G "$repo/target/wasm/*.wasm" >/dev/null || die "no contract wasm in $repo/target/wasm: bash scripts/build-wasm.sh"
  compgen -G "$repo/target/wasm/blend/*.wasm" >/dev/null || die "no Blend wasm in $repo/target/wasm/blend: bash scripts/blend-wasms.sh"
else
  echo "submit.sh: $repo is not visible here; the nodes must have it" >&2
fi

case "$out" in /*) ;; *) out="$(pwd)/$out" ;; esac
mkdir -p "$out/logs"

jobid() { local id; id="$(sbatch --parsable "$@")" || exit 1; echo "${id%%;*}"; }

array="$(jobid --array="0-$((shards - 1))${max:+%$max}" --cpus-per-task="$workers" --chdir="$repo" \
  --output="$out/logs/sweep-%A_%a.log" ${extra[@]+"${extra[@]}"} \
  "$here/sweep-array.sbatch" "$repo" "$out" "$shards" "$workers" "$@")"
# kill-on-invalid-dep: when a shard fails the merge is cancelled instead of pending for ever.
if ! merge="$(jobid --dependency="afterok:$array" --kill-on-invalid-dep=yes --chdir="$repo" \
  --output="$out/logs/merge-%j.log" ${extra[@]+"${extra[@]}"} \
  "$here/merge.sbatch" "$repo" "$out" "$shards")"; then
  echo "submit.sh: the array job $array is queued but the merge could not be; cancel it (scancel $array) or queue the merge by hand:" >&2
  echo "  sbatch --dependency=afterok:$array --chdir=$repo --output=$out/logs/merge-%j.log $here/merge.sbatch $repo $out $shards" >&2
  exit 1
fi

if [ "$parsable" -eq 1 ]; then
  echo "$array $merge"
else
  echo "sweep: array job $array, tasks 0-$((shards - 1)) -> $out/shard-<i> (logs: $out/logs/sweep-${array}_<i>.log)"
  echo "merge: job $merge, after every task succeeds -> $out/merged (log: $out/logs/merge-$merge.log)"
  echo "follow: squeue -j $array,$merge"
fi
