#!/usr/bin/env bash
# The benchmark page in Chromium on the NVIDIA H200 machine (WebGPU on the NVIDIA GPU), with the
# GPU-machine tool (`device`: a copy of the working tree plus up to 8 carried paths, 64 MiB a call,
# no Node.js and no registry there). Three steps, the last two on the GPU machine in two calls made
# back to back while it stays warm, because the bundled Chromium alone (chromium.br, 64 MB) is over
# one call's 64 MiB:
#
#   here:   bench/h200/browser-h200.sh prepare
#             builds the runner and the page (npm run bench:build), the Vulkan layer below, and packs
#             .gpu-browser-a/ (Node, the first part of chromium.br) and .gpu-browser-b/ (the second
#             part, the rest of @sparticuz/chromium, NVIDIA's GL dispatch debs, the layer, the runner
#             bundle and the built page), each well under 64 MiB, both ignored by git.
#   call 1: bench/h200/browser-h200.sh stash            (carry .gpu-browser-a)
#             keeps part a in /tmp/d3d12-webgpu-h200 for the next call.
#   call 2: bench/h200/browser-h200.sh run "$OUT"       (carry .gpu-browser-b)
#             joins chromium.br (checked against its sha256), installs the layer as an implicit Vulkan
#             layer and the debs, and runs bench/dist/browser.mjs over the page with the launch flags
#             below; writes $OUT/browser-nvidia-<arch>.json (copy it to bench/results/).
#
# Why a layer: headless Chromium creates its Vulkan instance with VK_EXT_headless_surface, which
# NVIDIA's driver lacks, so the GPU process fails and WebGPU gets no adapter. WebGPU never presents,
# so an implicit layer that advertises the extension, strips it before the driver sees it and hands
# out placeholder surfaces is enough (headless-surface-layer.c). It must be implicit: Chromium checks
# the instance-level extension list, where only implicit layers' extensions appear.
# Launch flags: Vulkan for ANGLE and Chromium (--use-angle=vulkan --use-vulkan=native; with ANGLE on
# SwiftShader the WebGPU adapter is SwiftShader too), no GPU sandbox or blocklist on a server GPU.
set -euo pipefail
here=$(cd "$(dirname "$0")" && pwd)
root=$(cd "$here/../.." && pwd)
stash=${D3D12_H200_STASH:-/tmp/d3d12-webgpu-h200}
# A rehearsal here (REHEARSAL=1): the same steps with SwiftShader's ICD, leaving / and /etc/vulkan alone.
rehearsal=${REHEARSAL:-0}
# Part a's share of chromium.br: with Node (24 MiB) it stays under the limit with room for the tree.
PART_A_BYTES=$((30 * 1024 * 1024))
LAYER=libVkLayer_stub_headless_surface.so
ICD=${D3D12_H200_ICD:-/usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json}
FLAGS=(--gpu=hardware --browser-arg=--disable-gpu-sandbox --browser-arg=--ignore-gpu-blocklist
  --browser-arg=--use-angle=vulkan --browser-arg=--use-vulkan=native --browser-arg=--enable-features=Vulkan)

build_layer() { # DIR: the layer and its manifest (gcc and the Vulkan headers: libvulkan-dev)
  mkdir -p "$1"
  [ -f /usr/include/vulkan/vk_layer.h ] || { apt-get update -qq >/dev/null 2>&1 || true; apt-get install -y -qq libvulkan-dev >/dev/null; }
  gcc -shared -fPIC -O2 -fvisibility=hidden -o "$1/$LAYER" "$here/headless-surface-layer.c"
  cat > "$1/VkLayer_stub_headless_surface.json" <<'JSON'
{
  "file_format_version": "1.1.2",
  "layer": {
    "name": "VK_LAYER_STUB_headless_surface",
    "type": "GLOBAL",
    "library_path": "LIBRARY_PATH",
    "api_version": "1.3.239",
    "implementation_version": "1",
    "description": "advertises VK_EXT_headless_surface with placeholder surfaces",
    "instance_extensions": [ { "name": "VK_EXT_headless_surface", "spec_version": "1" } ],
    "disable_environment": { "DISABLE_STUB_HEADLESS_SURFACE": "1" }
  }
}
JSON
}

prepare() {
  cd "$root"
  for d in .gpu-browser-a .gpu-browser-b; do grep -qx "/$d/" .git/info/exclude 2>/dev/null || echo "/$d/" >> .git/info/exclude; done
  rm -rf .gpu-browser-a .gpu-browser-b && mkdir -p .gpu-browser-a .gpu-browser-b/debs .gpu-browser-b/node_modules/@sparticuz/chromium/bin
  npm run -s bench:build
  xz -T2 -6 -c "$(command -v node)" > .gpu-browser-a/node.xz
  local pkg=node_modules/@sparticuz/chromium
  head -c "$PART_A_BYTES" "$pkg/bin/chromium.br" > .gpu-browser-a/chromium.br.part-a
  tail -c +$((PART_A_BYTES + 1)) "$pkg/bin/chromium.br" > .gpu-browser-b/chromium.br.part-b
  sha256sum < "$pkg/bin/chromium.br" | cut -d' ' -f1 > .gpu-browser-b/chromium.br.sha256
  cp -r "$pkg/package.json" "$pkg/build" .gpu-browser-b/node_modules/@sparticuz/chromium/
  cp "$pkg"/bin/{swiftshader,fonts,al2023}.tar.br .gpu-browser-b/node_modules/@sparticuz/chromium/bin/
  (cd .gpu-browser-b/debs && apt-get download libglvnd0 libgl1 libglx0 libegl1 libopengl0 libgles2 \
     libx11-6 libxext6 libxcb1 libxau6 libxdmcp6 libbsd0 libmd0 >/dev/null 2>&1) || { apt-get update -qq >/dev/null 2>&1; (cd .gpu-browser-b/debs && apt-get download libglvnd0 libgl1 libglx0 libegl1 libopengl0 libgles2 libx11-6 libxext6 libxcb1 libxau6 libxdmcp6 libbsd0 libmd0 >/dev/null); }
  build_layer .gpu-browser-b/layer
  cp bench/dist/browser.mjs .gpu-browser-b/
  cp -r bench/dist/page .gpu-browser-b/page
  du -sh .gpu-browser-a .gpu-browser-b
}

stash() {
  mkdir -p "$stash"
  cp "$root"/.gpu-browser-a/* "$stash"/
  ls -la "$stash"
}

run() {
  local out=${1:?usage: browser-h200.sh run OUT_DIR}
  local b="$root/.gpu-browser-b"
  [ -f "$stash/chromium.br.part-a" ] || { echo "no $stash/chromium.br.part-a: run 'stash' first, in a call just before this one" >&2; exit 2; }
  mkdir -p "$stash/node_modules/@sparticuz" "$stash/bin"
  cp -r "$b/node_modules/@sparticuz/chromium" "$stash/node_modules/@sparticuz/"
  cat "$stash/chromium.br.part-a" "$b/chromium.br.part-b" > "$stash/node_modules/@sparticuz/chromium/bin/chromium.br"
  [ "$(sha256sum < "$stash/node_modules/@sparticuz/chromium/bin/chromium.br" | cut -d' ' -f1)" = "$(cat "$b/chromium.br.sha256")" ] || { echo 'chromium.br: the joined parts do not match its sha256' >&2; exit 2; }
  [ -x "$stash/bin/node" ] || { xz -d -c "$stash/node.xz" > "$stash/bin/node"; chmod +x "$stash/bin/node"; }
  # NVIDIA's Vulkan driver loads the GL vendor-neutral dispatch libraries: installed where ld.so finds them.
  cp "$b/layer/$LAYER" "$stash/"
  if [ "$rehearsal" != 1 ]; then
    for f in "$b"/debs/*.deb; do dpkg -x "$f" /; done
    ldconfig
    mkdir -p /etc/vulkan/implicit_layer.d
    sed "s|LIBRARY_PATH|$stash/$LAYER|" "$b/layer/VkLayer_stub_headless_surface.json" > /etc/vulkan/implicit_layer.d/stub-headless.json
  fi
  cp "$b/browser.mjs" "$stash/" && rm -rf "$stash/page" && cp -r "$b/page" "$stash/page"
  [ -f "$ICD" ] || { echo "no NVIDIA Vulkan ICD at $ICD" >&2; exit 2; }
  cd "$stash"
  VK_ICD_FILENAMES=$ICD D3D12_WEBGPU_BROWSER=bundled "$stash/bin/node" browser.mjs --page="$stash/page" "${FLAGS[@]}" --out="$out" --no-report "${@:2}"
  # Chromium names no architecture for an NVIDIA adapter (and the device only as a PCI id, 0x2335,
  # with developer features on), so the runner writes browser-nvidia-unknown.json or
  # browser-nvidia-0x2335.json; name the file after the GPU as nvidia-smi reports it.
  local gpu
  gpu=$(nvidia-smi --query-gpu=name --format=csv,noheader 2>/dev/null | head -1 | tr 'A-Z' 'a-z' | sed 's/^nvidia //; s/[^a-z0-9]\+/-/g; s/^-//; s/-$//')
  if [ -n "$gpu" ]; then
    for f in "$out"/browser-nvidia-*.json; do
      case "$f" in */browser-nvidia-unknown*|*/browser-nvidia-0x*) [ -f "$f" ] && mv "$f" "$(echo "$f" | sed -E "s#/browser-nvidia-(unknown|0x[0-9a-f]+)#/browser-nvidia-$gpu#")" ;; esac
    done
  fi
  ls "$out"
}

case "${1:-}" in
  prepare) prepare ;;
  stash) stash ;;
  run) run "${@:2}" ;;
  *) echo "usage: $0 prepare | stash | run OUT_DIR [runner flags]" >&2; exit 2 ;;
esac
