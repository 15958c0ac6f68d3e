#!/usr/bin/env bash
# God's algorithm across the nodes of a Slurm allocation: one ksolve process per node,
# started by srun, talking over TCP through timely dataflow. Each process holds its share
# of the distance table and writes its share of a checkpoint after every layer, so a
# requeued or resubmitted job continues from the last complete layer (--resume).
#
#   sbatch --nodes=4 deploy/slurm-god.sh puzzles/2x2x2.def
#
# Environment: KSOLVE (the binary, default ksolve on PATH), CHECKPOINT (a folder every
# node can write; node-local folders work too since each worker writes its own files, but
# then a resumed job must land on the same nodes), PORT (first TCP port, default 2101).
#SBATCH --job-name=ksolve-god
#SBATCH --ntasks-per-node=1
#SBATCH --cpus-per-task=1
#SBATCH --requeue
#SBATCH --output=ksolve-god-%j.out
set -euo pipefail

DEF=${1:?usage: sbatch deploy/slurm-god.sh PUZZLE.def}
KSOLVE=${KSOLVE:-ksolve}
CHECKPOINT=${CHECKPOINT:-$PWD/ksolve-god-checkpoint}
PORT=${PORT:-2101}
HOSTS=$PWD/ksolve-god-hosts.$SLURM_JOB_ID
export DEF KSOLVE CHECKPOINT HOSTS

# Process i of the run listens on line i of the host file; srun numbers its tasks in the
# same node order, so SLURM_PROCID is the process's line.
scontrol show hostnames "$SLURM_JOB_NODELIST" | sed "s/\$/:$PORT/" > "$HOSTS"

# One worker thread per process: a worker expands with one core, and more workers would
# split the table into more, smaller shares for the same memory.
srun --ntasks="$SLURM_NTASKS" bash -c 'exec "$KSOLVE" god "$DEF" --distributed --checkpoint "$CHECKPOINT" --resume -q -- -w 1 -n "$SLURM_NTASKS" -p "$SLURM_PROCID" -h "$HOSTS"'
