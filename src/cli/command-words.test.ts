/** A server command split into argv without a shell: quotes, escapes, and every refusal with its message. */
import { describe, expect, it } from 'vitest';
import { commandWords } from './command-words.js';

describe('commandWords', () => {
  it('splits on spaces and tabs, keeps quoted words whole and takes escapes', () => {
    expect(commandWords(`node  dist/cli/main.js\tsim --port 8000`)).toEqual({ ok: true, argv: ['node', 'dist/cli/main.js', 'sim', '--port', '8000'] });
    expect(commandWords(`llama-server -m '/models/my model.gguf' --alias "a \\"b\\" c"`)).toEqual({
      ok: true,
      argv: ['llama-server', '-m', '/models/my model.gguf', '--alias', 'a "b" c'],
    });
    expect(commandWords(`a b\\ c '' "$HOME|x"`)).toEqual({ ok: true, argv: ['a', 'b c', '', '$HOME|x'] });
  });

  it('refuses what a shell would have read, naming it', () => {
    expect(commandWords('vllm serve m | tee log')).toEqual({
      ok: false,
      message: "'|' is a shell operator, and the command runs without a shell: quote it to pass it as a word, or start the server from a script",
    });
    expect(commandWords('server --dir $HOME')).toMatchObject({ ok: false, message: expect.stringContaining("'$' is a shell operator") });
    expect(commandWords("server 'open")).toEqual({ ok: false, message: 'has an unclosed single quote' });
    expect(commandWords('server \\')).toEqual({ ok: false, message: 'ends in a backslash with nothing after it' });
    expect(commandWords('   ')).toEqual({ ok: false, message: 'is empty: give the command that starts the server' });
    expect(commandWords('a\nb')).toEqual({ ok: false, message: 'holds a control character' });
    expect(commandWords(Array.from({ length: 257 }, () => 'x').join(' '))).toEqual({
      ok: false,
      message: 'has 257 words, above the limit of 256 arguments in a server command (goodput coldstart --cmd)',
    });
  });
});
