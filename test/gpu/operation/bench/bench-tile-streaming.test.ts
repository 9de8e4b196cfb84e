/**
 * The tile-streaming benchmark figure (bench/suite/tile-streaming.ts) in quick mode on the Node.js
 * Dawn device: its rows (the ring mapped per write and persistently, and per write without GPU
 * fault logging, each through copyTiles and then through copyTextureRegion, all against the raw
 * WebGPU streamer), one sample per round on both sides, finite latencies (p95 at least the median), the
 * CPU production time kept as an extra, and a live sample per round and side. The figure itself
 * throws if a tile it read back differs from the CPU reference. Nothing about speed is asserted.
 */
import { expect } from 'vitest';
import type { LiveEvent } from '../../../../bench/suite/figure.js';
import { FIGURES } from '../../../../bench/suite/suite.js';
import { tileStreaming } from '../../../../bench/suite/tile-streaming.js';
import { gpuTest } from '../../../harness/gpu-test.js';
import { expectFigureShape, figureReport, quickContext } from '../../../shared/bench-figures.js';

const VARIANTS = [
  'ring mapped per write (written ranges)',
  'ring mapped persistently',
  'mapped per write, gpuValidation off',
];
/** Each variant through copyTiles (the names results were first recorded under), then through copyTextureRegion. */
const CASES = VARIANTS.flatMap((name) => [name, `copyTextureRegion: ${name}`]);

gpuTest(
  'tile-streaming (quick): rows, latencies, live samples; registered after tile-validation',
  async ({ device }) => {
    const events: LiveEvent[] = [];
    const figure = await tileStreaming({ ...quickContext(device), live: (event) => events.push(event) });
    console.log(figureReport(figure));
    expectFigureShape(figure, 'tile-streaming', 'MB/s', CASES);
    expect(figure.target).toEqual({ text: 'at least 0.9 of the raw rate', ratio: 0.9, direction: 'at-least' });
    expect(figure.parameters.tiles).toBe(36);
    for (const r of figure.rows) {
      const extra = r.extra ?? {};
      for (const [median, p95] of [
        [extra.latencyMedianMs, extra.latencyP95Ms],
        [extra.rawLatencyMedianMs, extra.rawLatencyP95Ms],
      ] as const) {
        expect(Number.isFinite(median) && (median ?? -1) >= 0, `${r.case}: median ${median}`).toBe(true);
        expect(p95, r.case).toBeGreaterThanOrEqual(median ?? Infinity);
      }
      expect(extra.cpuProduceMsPerTile, r.case).toBeGreaterThan(0);
      expect(extra.tiles, r.case).toBe(36);
    }
    for (const name of CASES) {
      for (const side of ['measured', 'baseline'] as const) {
        const samples = events.filter((e) => e.kind === 'sample' && e.case === name && e.side === side);
        expect(samples, `${name} ${side}`).toHaveLength(figure.rounds);
        expect(samples.every((e) => e.kind === 'sample' && e.figure === 'tile-streaming' && e.unit === 'MB/s')).toBe(
          true,
        );
      }
    }
    const ids = FIGURES.map((f) => f.id);
    expect(ids.indexOf('tile-streaming')).toBe(ids.indexOf('tile-validation') + 1);
  },
);
