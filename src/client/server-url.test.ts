import { describe, expect, it } from 'vitest';
import { isLoopback, serverRoot } from './index.js';

describe('serverRoot', () => {
  it('drops trailing slashes and a final /v1, keeping a path prefix', () => {
    expect(serverRoot('http://h:8000')).toBe('http://h:8000');
    expect(serverRoot('http://h:8000/')).toBe('http://h:8000');
    expect(serverRoot('http://h:8000/v1')).toBe('http://h:8000');
    expect(serverRoot('http://h:8000/v1//')).toBe('http://h:8000');
    expect(serverRoot('https://h/proxy/v1/')).toBe('https://h/proxy');
    expect(serverRoot('http://h:8000/v1x')).toBe('http://h:8000/v1x');
    expect(serverRoot('http://h:8000/v1/v1')).toBe('http://h:8000/v1');
    expect(serverRoot(new URL('http://H:80/v1'))).toBe('http://h');
  });
  it('throws on what is not a URL', () => {
    expect(() => serverRoot('not a url')).toThrow(TypeError);
  });
});

describe('isLoopback', () => {
  it('knows this machine by name and address', () => {
    for (const h of ['localhost', 'LOCALHOST', '127.0.0.1', '127.5.6.7', '::1', '[::1]']) expect(isLoopback(h)).toBe(true);
  });
  it('does not take other hosts for it', () => {
    for (const h of ['127.example.com', '10.0.0.1', 'gpu-host', '::2', '0.0.0.0', '']) expect(isLoopback(h)).toBe(false);
  });
});
