import { describe, expect, it } from 'vitest';
import { redactUrl, urlCredentialProblem } from './url-credentials.js';

describe('urlCredentialProblem', () => {
  it('accepts plain server URLs', () => {
    expect(urlCredentialProblem('http://127.0.0.1:8000/v1')).toBeNull();
    expect(urlCredentialProblem('https://host.example/v1?model=x')).toBeNull();
  });
  it('refuses a user name or password, and secret query parameters, naming the parameter', () => {
    expect(urlCredentialProblem('https://user:sk-123@host/v1')).toMatch(/user name or password/);
    expect(urlCredentialProblem('https://token@host/v1')).toMatch(/user name or password/);
    expect(urlCredentialProblem('https://host/v1?api-key=sk-1')).toMatch(/\(api-key=…\)/);
    expect(urlCredentialProblem('https://host/v1?access_token=a')).toMatch(/\(access_token=…\)/);
  });
});

describe('redactUrl', () => {
  it('hides user info and every secret-looking query parameter, keeping the rest', () => {
    expect(redactUrl('postgres://alice:hunter2@db.local:5432/goodput?sslmode=require&password=pw&sslpassword=x')).toBe(
      'postgres://***:***@db.local:5432/goodput?sslmode=require&password=***&sslpassword=***',
    );
    expect(redactUrl('https://token@host/v1?api_key=sk-1&model=m&KEY=2')).toBe('https://***@host/v1?api_key=***&model=m&KEY=***');
    expect(redactUrl('http://127.0.0.1:8000/v1')).toBe('http://127.0.0.1:8000/v1');
  });
  it('answers null for what is not a URL', () => {
    expect(redactUrl('not a url password=x')).toBeNull();
  });
});
