import type { SceneMeta } from '../common/scene-meta.js';

export const meta: SceneMeta = {
  name: 'growable-buffer',
  title: 'Growable reserved buffer',
  tagline: 'A 2 GiB reserved buffer that grows and shrinks with its particles, beside the classic copy-on-resize path.',
  pictureAlt:
    "Two halves of particles: on the left the reserved buffer's, coloured by backing heap; on the right the classic buffer's, in grey.",
  summary:
    'An instance buffer with 2 GiB of virtual space whose committed size follows a particle population that grows and shrinks, ' +
    "managed as UE5's CommitReservedResource does: 16 MiB backing heaps, growth and shrinking only at the tail, slack tiles " +
    'of the last heap reused before a new heap is created, nothing ever copied (left, coloured by backing heap). The right half ' +
    'runs the same population through the classic path, a new committed buffer, a copy and a release at every resize; the charts ' +
    'compare their memory, including the classic peak of old + new, and the time of each resize.',
  calls: [
    'createReservedResource',
    'createHeap',
    'updateTileMappings',
    'Heap.release',
    'createCommittedResource',
    'copyBufferRegion',
    'dispatch',
    'drawInstanced',
    'signal',
  ],
};
