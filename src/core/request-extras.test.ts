// Extra headers and extra body: each refusal names its rule, a secret-looking value is redacted.
import { describe, expect, it } from 'vitest';
import { extraBodyProblem, redactedBody, extraHeadersSchema, headerProblem, isSecretHeader, parseHeaderArg, redactedHeaders } from './request-extras.js';

describe('extra headers', () => {
  it('parses Name: value, trimming around the colon', () => {
    expect(parseHeaderArg('X-Tenant:  a b ')).toEqual({ name: 'X-Tenant', value: 'a b' });
    expect(parseHeaderArg('X-Empty:')).toEqual({ name: 'X-Empty', value: '' });
  });

  it('refuses each bad header naming the rule', () => {
    expect(parseHeaderArg('no colon')).toEqual({ problem: "'no colon' is not Name: value" });
    expect(headerProblem('X Bad', 'v')).toBe(`name "X Bad" holds a character a header name cannot (letters, digits and !#$%&'*+.^_\`|~- only)`);
    expect(headerProblem('Connection', 'close')).toBe('Connection is set by goodput or by the connection itself, never by --header');
    expect(headerProblem('transfer-encoding', 'chunked')).toBe('transfer-encoding is set by goodput or by the connection itself, never by --header');
    expect(headerProblem('X-A', 'a\r\nInjected: 1')).toBe('the value of X-A holds a line break or a control or non-ASCII character');
    expect(headerProblem('x'.repeat(129), 'v')).toBe('name length 129 is above the limit of 128 characters in the name of an extra header');
    expect(headerProblem('X-A', 'v'.repeat(4097))).toBe('X-A value length 4097 is above the limit of 4096 characters in the value of an extra header');
  });

  it('bounds the count and refuses a name given twice', () => {
    const many = Array.from({ length: 33 }, (_, i) => ({ name: `X-${i}`, value: 'v' }));
    expect(extraHeadersSchema.safeParse(many).error?.issues[0]?.message).toBe(
      'headers 33 is above the limit of 32 extra headers sent with every request (--header)',
    );
    expect(
      extraHeadersSchema.safeParse([
        { name: 'X-A', value: '1' },
        { name: 'x-a', value: '2' },
      ]).error?.issues[0]?.message,
    ).toBe('header x-a is given twice');
  });

  it('redacts values whose name names a credential or that look random, keeps the rest', () => {
    expect(isSecretHeader('X-Api-Key', 'short')).toBe(true);
    expect(isSecretHeader('Authorization', 'Bearer x')).toBe(true);
    expect(isSecretHeader('Cookie', 'a=b')).toBe(true);
    expect(isSecretHeader('X-Trace', 'f3A9kQ2mZ8xL1pR7vB4nC6tY')).toBe(true);
    expect(isSecretHeader('X-Tenant', 'team-a')).toBe(false);
    expect(isSecretHeader('X-Session-Affinity', 'a')).toBe(true);
    expect(isSecretHeader('X-Route', 'aaaaaaaaaaaaaaaaaaaaaaaaaaaaaa111')).toBe(false);
    expect(
      redactedHeaders([
        { name: 'X-Tenant', value: 'a' },
        { name: 'X-Token', value: 't' },
      ]),
    ).toEqual([
      { name: 'X-Tenant', value: 'a' },
      { name: 'X-Token', value: '[redacted]' },
    ]);
  });
});

describe('extra body', () => {
  it('is recorded with values under credential-like keys redacted, at any depth', () => {
    expect(redactedBody({ priority: 1, metadata: { user_id: 'u1', api_key: 'sk-x' }, list: [{ token: 't' }] })).toEqual({
      priority: 1,
      metadata: { user_id: 'u1', api_key: '[redacted]' },
      list: [{ token: '[redacted]' }],
    });
  });

  it('takes an object within the limit that leaves the workload alone', () => {
    expect(extraBodyProblem({ priority: 1 })).toBeNull();
    expect(extraBodyProblem([1])).toBe('must be a JSON object, e.g. {"priority":1}');
    expect(extraBodyProblem({ stream: false })).toBe('sets stream, which goodput writes itself (the workload and the stream are what is measured)');
    expect(extraBodyProblem({ pad: 'x'.repeat(65_536) })).toBe(
      'size 65546 is above the limit of 65536 bytes of JSON merged into every request body (--extra-body)',
    );
  });
});
