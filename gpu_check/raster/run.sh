#!/usr/bin/env bash
# Builds and runs the rasterization GPU check from the repository root (docs/raster.md).
set -euo pipefail
nvcc -std=c++20 -I. -arch=sm_90 gpu_check/raster/raster_check.cu -o /tmp/raster_check
/tmp/raster_check
