// The workspace policy (weft.policy.json, docs/policies.md): its text, checked as it is typed, and
// its rules in words beside it. Saving writes the file; the editor then checks every workflow
// against the new rules, and runs start under them. Runs already started keep the policy they
// started under (their page says which).
import { useEffect, useMemo, useState } from 'react';
import { useQuery, useQueryClient } from '@tanstack/react-query';
import { RotateCcw, Save, ShieldCheck } from 'lucide-react';
import { keys } from '../core/query-keys.ts';
import { messageOf } from '../core/query-client.ts';
import { requireClients } from '../api/clients.ts';
import { LazyCodeField } from '../code/lazy-code-field.tsx';
import { problemPlace, readPolicy, STARTER_POLICY } from './policy-text.ts';
import { PolicyRules } from './policy-rules.tsx';
import { PolicyFindings } from './policy-findings.tsx';
import { useWorkspacePolicyRules } from './policy-store.ts';
import './policy.css';

export function PolicyPage() {
  const file = useQuery({ queryKey: keys.policy(), queryFn: () => requireClients().policy.read() });
  // The same query keeps the editor's rules (and the sidebar's count) in step with what is saved here.
  useWorkspacePolicyRules();
  const queryClient = useQueryClient();
  const saved = file.data?.text ?? null;
  // The text being edited; null until the file is read (then it starts as the file's text).
  const [draft, setDraft] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);
  const [saveError, setSaveError] = useState<string | null>(null);
  useEffect(() => {
    document.title = 'Policy · Weft Studio';
  }, []);
  useEffect(() => {
    if (draft === null && file.data !== undefined && saved !== null) setDraft(saved);
  }, [draft, file.data, saved]);

  const text = draft ?? '';
  const reading = useMemo(() => readPolicy(text), [text]);
  const shown = reading.policy !== undefined ? reading : readPolicy(saved ?? '');
  const changed = draft !== null && draft !== (saved ?? '');
  const canSave = changed && reading.policy !== undefined && !saving;

  const save = async (): Promise<void> => {
    if (!canSave || draft === null) return;
    setSaving(true);
    setSaveError(null);
    try {
      // The file as written (the server may end it with a new line) is the text edited from now on.
      const answer = await requireClients().policy.write(draft);
      queryClient.setQueryData(keys.policy(), answer);
      setDraft(answer.text);
    } catch (e) {
      setSaveError(messageOf(e));
    } finally {
      setSaving(false);
    }
  };

  if (file.error !== null && file.data === undefined) return <div className="page"><div className="error-box">Could not read the workspace policy: {messageOf(file.error)}</div></div>;
  if (file.data === undefined) return <div className="page"><div className="loading">Reading the workspace policy…</div></div>;

  const none = saved === null && draft === null;
  return (
    <div className="page policy-page" data-testid="policy-page">
      <div className="page-head policy-head">
        <div>
          <h1 className="page-title">Workspace policy</h1>
          <p className="page-sub">
            Rules every run of this workspace starts under, checked in the editor, at start and on every operator action. Runs already started keep the policy they started under.
          </p>
        </div>
        <div className="page-actions">
          <span className={`policy-status policy-status--${reading.problems.length > 0 ? 'bad' : changed ? 'changed' : 'ok'}`} data-testid="policy-status">
            {reading.problems.length > 0 ? `${reading.problems.length} ${reading.problems.length === 1 ? 'problem' : 'problems'}` : changed ? 'Unsaved changes' : none ? 'No policy' : 'Saved'}
          </span>
          <button type="button" className="button" disabled={!changed || saving} onClick={() => setDraft(saved ?? null)} data-testid="policy-revert">
            <RotateCcw size={14} aria-hidden="true" /> Revert
          </button>
          <button type="button" className="button button-primary" disabled={!canSave} onClick={() => void save()} data-testid="policy-save">
            <Save size={14} aria-hidden="true" /> {saving ? 'Saving…' : 'Save'}
          </button>
        </div>
      </div>
      {saveError !== null ? <div className="error-box" role="alert" data-testid="policy-save-error">{saveError}</div> : null}
      {none ? (
        <div className="empty policy-empty" data-testid="policy-none">
          <ShieldCheck size={28} aria-hidden="true" />
          <h2>This workspace has no policy</h2>
          <p>Without one, any workflow the validator accepts may run, and operators may take any action a run permits.</p>
          <button type="button" className="button button-primary" onClick={() => setDraft(STARTER_POLICY)} data-testid="policy-start">
            Start a policy
          </button>
        </div>
      ) : (
        <div className="policy-body">
          <section className="policy-file" aria-label="policy file">
            <div className="policy-file-head">
              <span className="mono">{file.data.file}</span>
            </div>
            <LazyCodeField value={text} onChange={(v) => setDraft(v)} mode="json" multiline label="weft.policy.json" testId="policy-text" externalDiagnostics={reading.marks} onSubmit={() => void save()} />
            {reading.problems.length > 0 ? (
              <ul className="policy-problems" data-testid="policy-problems">
                {reading.problems.map((d, i) => (
                  <li key={i}>
                    <span className="policy-problem-place">{problemPlace(text, d)}</span>
                    <span className="policy-problem-message">{d.message}</span>
                    <span className="policy-problem-hint">{d.hint}</span>
                  </li>
                ))}
              </ul>
            ) : null}
          </section>
          <div className="policy-side">
            <PolicyRules rules={shown.rules} stale={reading.policy === undefined && shown.policy !== undefined} />
            {file.data.policy === null ? null : <PolicyFindings workflows={file.data.workflows} />}
          </div>
        </div>
      )}
    </div>
  );
}
