/** files/: the one way any command reads a file it was given: regular files only, bounded while read. */
export { FileRefusal, openRegularFile, readRegularFile, readRegularText } from './regular-file.js';
export { type LineLimits, readRegularLines } from './line-reader.js';
