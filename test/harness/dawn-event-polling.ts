/**
 * setupFiles of the gpu project: Dawn's wait for the GPU sleeps between polls instead of spinning a
 * core (tools/node/dawn-polling.ts says why and what it saves). Every test of the project runs on
 * SwiftShader in CI; the library's own polling is what a user of a real GPU gets.
 */
import { yieldWhileDawnPolls } from '../../tools/node/dawn-polling.js';

yieldWhileDawnPolls();
