/** workload/: what is sent — prompts and their lengths. */
export { syntheticPrompt } from './synthetic-prompt.js';
