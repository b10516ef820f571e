/** telemetry/: what the accelerator reports while a level runs. */
export { createGpuSampler, type GpuSampler, type GpuReader } from './gpu-sampler.js';
export { parseNvidiaSmiCsv, readNvidiaSmi, type GpuReading } from './nvidia-smi.js';
