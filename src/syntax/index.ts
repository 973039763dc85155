export * from './bytes.js';
export * from './edit.js';
export * from './nodes.js';
export { parse } from './parse.js';
export { type ChunkSink, print, printChunks } from './print.js';
export * from './words.js';
