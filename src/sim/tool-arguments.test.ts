// The simulator's tool-call arguments against the schemas they are drawn from (checked by core's compiled
// validators): valid ones always validate, invalid ones parse and never validate, malformed ones never parse.
import { describe, expect, it } from 'vitest';
import { compileTools } from '../core/index.js';
import { builtinTools } from '../workload/index.js';
import { argumentPieces, argumentsText } from './tool-arguments.js';

const tools = builtinTools(64);
const compiled = compileTools(tools);
if (!compiled.ok) throw new Error(compiled.message);
const { checker } = compiled;

describe('simulated tool-call arguments', () => {
  it('valid, invalid and malformed come out as asked, for every built-in tool and many seeds', () => {
    for (const t of tools) {
      for (let seed = 0; seed < 20; seed++) {
        const judge = (q: 'valid' | 'invalid' | 'malformed') =>
          checker.judge([{ name: t.function.name, arguments: argumentsText(t.function.parameters, seed, q) }], true, null).verdict;
        expect(judge('valid'), `${t.function.name} seed ${seed}`).toBe('valid');
        expect(judge('invalid'), `${t.function.name} seed ${seed}`).toBe('invalid');
        expect(judge('malformed'), `${t.function.name} seed ${seed}`).toBe('unparsed');
      }
    }
  });

  it('follows enums, bounds and nesting of a hand-written schema, and stops at a depth limit', () => {
    const schema = {
      type: 'object',
      required: ['n', 'e', 'deep'],
      properties: {
        n: { type: 'integer', minimum: 3, maximum: 3 },
        e: { enum: ['only'] },
        deep: { type: 'object', required: ['x'], properties: { x: { type: 'array', minItems: 2, maxItems: 2, items: { type: 'boolean' } } } },
      },
    };
    const v = JSON.parse(argumentsText(schema, 7, 'valid')) as { n: number; e: string; deep: { x: boolean[] } };
    expect(v.n).toBe(3);
    expect(v.e).toBe('only');
    expect(v.deep.x).toHaveLength(2);
    let nested: Record<string, unknown> = { type: 'object', required: ['a'], properties: {} };
    for (let i = 0; i < 50; i++) nested = { type: 'object', required: ['a'], properties: { a: nested } };
    expect(() => JSON.parse(argumentsText(nested, 1, 'valid'))).not.toThrow();
  });

  it('splits the text into pieces that join back to it, one per output token', () => {
    const text = argumentsText(tools[5]?.function.parameters, 3, 'valid');
    const pieces = argumentPieces(text);
    expect(pieces.join('')).toBe(text);
    expect(pieces.length).toBe(Math.ceil(text.length / 4));
  });
});
