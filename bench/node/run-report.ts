/** `npm run bench:report`: redraws bench/results/report.html and report.png from the JSON there. */
import { readResults, RESULTS_DIR, writeReport } from './results.js';
import { markdownTable } from '../suite/table.js';

const results = readResults(RESULTS_DIR);
for (const file of await writeReport(results)) console.log(`wrote ${file}`);
console.log(`\n${markdownTable(results)}`);
