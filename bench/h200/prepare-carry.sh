#!/usr/bin/env bash
# Packs what a Node.js + Dawn (WebGPU) program needs to run on a Linux x86-64 machine that has an
# NVIDIA driver but no Node.js and no package registry (the H200 device machine): the node binary,
# the Vulkan loader, the GL vendor-neutral dispatch libraries that NVIDIA's Vulkan driver loads, and
# the `webgpu` package. Run after `npm install`, from anywhere in the project: it writes .gpu/ at the
# project root (about 45 MiB; .gitignore keeps it out of git) with bench/h200/env.sh beside it. Add
# your own files (a bundled benchmark, say) as arguments:
#   bench/h200/prepare-carry.sh bench/dist/node.mjs
# then carry .gpu/ to the GPU machine and there, from the project root:
#   source .gpu/env.sh && node .gpu/node.mjs
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
# The files to add, resolved before leaving the caller's directory.
files=()
for f in "$@"; do files+=("$(cd "$(dirname "$f")" && pwd)/$(basename "$f")"); done
cd "$root"
out=.gpu
mkdir -p "$out/debs" "$out/node_modules"
[ -f "$out/node.xz" ] || xz -T2 -6 -c "$(command -v node)" > "$out/node.xz"
if [ -z "$(ls "$out/debs" 2>/dev/null)" ]; then
  (apt-get update -qq >/dev/null 2>&1 || true)
  (cd "$out/debs" && apt-get download libvulkan1 libglvnd0 libgl1 libglx0 libegl1 libopengl0 libgles2 \
     libx11-6 libxext6 libxcb1 libxau6 libxdmcp6 libbsd0 libmd0 >/dev/null 2>&1)
fi
rm -rf "$out/node_modules/webgpu"
cp -r node_modules/webgpu "$out/node_modules/webgpu"
# Dawn ships a binary per platform; the GPU machine is linux-x64.
find "$out/node_modules/webgpu/dist" -mindepth 1 -maxdepth 1 ! -name linux-x64 -exec rm -rf {} +
for f in ${files[@]+"${files[@]}"}; do cp -r "$f" "$out/"; done
cp "$here/env.sh" "$out/env.sh"
du -sh "$out"
