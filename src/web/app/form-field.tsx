/**
 * One field of the Start form, drawn from its catalogue entry: a checkbox for
 * a switch, else a labelled input whose kind follows its check (numbers as
 * spin buttons, levels, requests and money as text), with its hint (or a
 * warning in its place) and its error tied to it by id.
 */
import type { AgentTraceBody, FormField, RunOption } from '../../core/index.js';
import { FORM_MAX_AGENT_TRACE_BYTES } from '../view/index.js';

interface Props {
  option: RunOption;
  form: FormField;
  value: string | boolean | AgentTraceBody;
  error: string | undefined;
  /** Shown in the hint's place (a short output's warning). */
  warning: string | null;
  onChange(value: string | boolean | AgentTraceBody): void;
}

/** A picked file as its name and text; past the bound only its first bytes are read (enough to refuse it, never a huge file whole). */
async function readPicked(input: HTMLInputElement): Promise<AgentTraceBody | ''> {
  const file = input.files?.[0];
  if (!file) return '';
  return { name: file.name, text: await file.slice(0, FORM_MAX_AGENT_TRACE_BYTES + 1).text() };
}

/** The input's attributes for a field's check. */
function inputKind(form: FormField): Record<string, string | number> {
  switch (form.check) {
    case 'count':
    case 'output-tokens':
      return { type: 'number', min: 1, step: 1 };
    case 'requests':
      return { type: 'text', inputMode: 'numeric' };
    case 'money':
    case 'seconds':
    case 'optional-number':
      return { type: 'text', inputMode: 'decimal' };
    case 'retries':
      return { type: 'text', inputMode: 'numeric' };
    default:
      return { type: 'text' };
  }
}

/** The field's hint (or a warning in its place) and its error, each under the id its input names. */
function Notes({ id, hint, warning = null, error }: { id: string; hint: string | undefined; warning?: string | null; error?: string | undefined }) {
  return (
    <>
      {warning ? (
        <p id={`${id}-hint`} class="warning">
          {warning}
        </p>
      ) : (
        hint && (
          <p id={`${id}-hint`} class="hint">
            {hint}
          </p>
        )
      )}
      {error && (
        <p id={`${id}-error`} class="field-error">
          {error}
        </p>
      )}
    </>
  );
}

export function FormFieldView({ option, form, value, error, warning, onChange }: Props) {
  const hintId = `${form.id}-hint`;
  const errorId = `${form.id}-error`;
  const hint = form.hint?.replaceAll('{default}', option.default ?? '');
  const described = `${hint ? hintId : ''} ${errorId}`.trim();
  if (form.check === 'agent-trace') {
    return (
      <div class="field wide">
        <label for={form.id}>{form.label}</label>
        <input
          id={form.id}
          type="file"
          accept=".jsonl,.json,.txt,application/json,text/plain"
          aria-invalid={error ? true : undefined}
          aria-describedby={described}
          onChange={(e) => void readPicked(e.target as HTMLInputElement).then(onChange)}
        />
        <Notes id={form.id} hint={hint} error={error} />
      </div>
    );
  }
  if (form.check === 'boolean') {
    return (
      <div class="field check">
        <input
          id={form.id}
          type="checkbox"
          checked={value === true}
          aria-describedby={hint ? hintId : undefined}
          onChange={(e) => onChange((e.target as HTMLInputElement).checked)}
        />
        <label for={form.id}>{form.label}</label>
        <Notes id={form.id} hint={hint} />
      </div>
    );
  }
  return (
    <div class="field">
      <label for={form.id}>{form.label}</label>
      <input
        id={form.id}
        {...inputKind(form)}
        placeholder={form.placeholder}
        value={String(value)}
        aria-invalid={error ? true : undefined}
        aria-describedby={`${hint || warning ? hintId : ''} ${errorId}`.trim()}
        onInput={(e) => onChange((e.target as HTMLInputElement).value)}
      />
      <Notes id={form.id} hint={hint} warning={warning} error={error} />
    </div>
  );
}
