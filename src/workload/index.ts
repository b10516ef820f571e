/** workload/: what is sent — prompts and their lengths. */
export { mulberry32, syntheticPrompt } from './synthetic-prompt.js';
