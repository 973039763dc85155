export * from './bytes.js';
export * from './edit.js';
export * from './nodes.js';
export { parse } from './parse.js';
export { print } from './print.js';
export * from './words.js';
