#!/bin/bash
# Sharded batch solving under Slurm: an array of `ksolve solve` shards, then a merge
# job that starts when every shard has ended.
#
# Submit from a login node, in the folder that holds the definition and scramble file:
#
#     SHARDS=16 DEF=puzzles/3x3x3.def SCRAMBLES=my-cases.txt bash deploy/slurm-solve.sh
#
# The script submits itself as a job array (one task per shard; each task writes
# $OUT/shard-K-of-N.jsonl atomically, so a requeued or retried task just replaces its
# file) and a merge job with `--dependency=afterany` on the array, which writes what one
# `ksolve solve` run would print to $OUT/merged.txt. afterany, not afterok: the merge
# itself names any shard that is missing (exit 1) and refuses shards of another batch
# (exit 2). Every shard reads the same pruning tables from $TABLES, a folder on a
# shared file system: the first task to need a table builds it and renames it into
# place, and tasks on one node share one memory-mapped copy.
#
# Settings (environment variables, all optional):
#   KSOLVE     the ksolve binary (default: ksolve on PATH)
#   DEF        the puzzle definition (default: puzzles/2x2x2.def)
#   SCRAMBLES  the scramble file (default: scrambles/2x2x2.batch.txt)
#   SHARDS     the number of array tasks (default: 4)
#   OUT        the folder for shard files and merged.txt (default: results)
#   TABLES     the shared pruning-table folder (default: tables)
#   SEED       the seed for RandomScramble (default: 1; shards must agree on it)
#SBATCH --job-name=ksolve-solve
#SBATCH --cpus-per-task=4
#SBATCH --mem=4G
#SBATCH --time=04:00:00
#SBATCH --output=ksolve-solve-%A_%a.log

set -euo pipefail

KSOLVE=${KSOLVE:-ksolve}
DEF=${DEF:-puzzles/2x2x2.def}
SCRAMBLES=${SCRAMBLES:-scrambles/2x2x2.batch.txt}
SHARDS=${SHARDS:-4}
OUT=${OUT:-results}
TABLES=${TABLES:-tables}
SEED=${SEED:-1}

if [ -n "${SLURM_ARRAY_TASK_ID:-}" ]; then
    # An array task: ksolve takes its shard from SLURM_ARRAY_TASK_ID and
    # SLURM_ARRAY_TASK_COUNT (counted from SLURM_ARRAY_TASK_MIN).
    exec "$KSOLVE" solve "$DEF" "$SCRAMBLES" --seed "$SEED" --out "$OUT" --tables "$TABLES" --threads "${SLURM_CPUS_PER_TASK:-1}" --quiet
fi

# On the login node: submit this script as the array, then the merge.
mkdir -p "$OUT" "$TABLES"
export KSOLVE DEF SCRAMBLES SHARDS OUT TABLES SEED
array=$(sbatch --parsable --export=ALL --array="0-$((SHARDS - 1))" "$0")
merge=$(sbatch --parsable --export=ALL --dependency="afterany:$array" \
    --job-name=ksolve-merge --output="$OUT/merge.log" \
    --wrap="\"\$KSOLVE\" merge \"\$OUT\" > \"\$OUT/merged.txt\"")
echo "submitted shards as job $array and the merge as job $merge; results in $OUT/merged.txt"
