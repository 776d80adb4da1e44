#!/usr/bin/env bash
# CTest fixture: start the local cluster; exit 77 (skipped) when it cannot start here.
# Usage: cluster_start.sh SLURM_LOCAL_SCRIPT USER_NAME
if ! bash "$1" start --user "$2"; then
  echo "SKIP: the local Slurm cluster cannot start on this machine (see above)"
  exit 77
fi
