# Sourced on the GPU machine from the project root, after .gpu/ (made by bench/h200/prepare-carry.sh,
# which copies this file into it) has travelled there:
#   source .gpu/env.sh && node .gpu/my-bench.mjs
# It unpacks node and the libraries into /tmp and points Dawn at the NVIDIA Vulkan driver.
_gpu=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
[ -x /tmp/gpu-node/bin/node ] || { mkdir -p /tmp/gpu-node/bin && xz -d -c "$_gpu/node.xz" > /tmp/gpu-node/bin/node && chmod +x /tmp/gpu-node/bin/node; }
[ -d /tmp/gpu-libs ] || { mkdir -p /tmp/gpu-libs && for f in "$_gpu"/debs/*.deb; do dpkg -x "$f" /tmp/gpu-libs; done; }
export PATH=/tmp/gpu-node/bin:$PATH
export LD_LIBRARY_PATH=/tmp/gpu-libs/usr/lib/x86_64-linux-gnu${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}
export NODE_PATH=$_gpu/node_modules
for _icd in /usr/local/nvidia/share/vulkan/icd.d/nvidia_icd.json /usr/share/vulkan/icd.d/nvidia_icd.json; do
  [ -f "$_icd" ] && { export VK_ICD_FILENAMES=$_icd; break; }
done
