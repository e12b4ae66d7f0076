// Open human tasks across runs. Answering them inline comes with the debugger; here each task
// opens its run.
import { useEffect } from 'react';
import { useRoute } from '../app/route-store.ts';
import { useTasks } from './tasks-store.ts';
import { rowKeys } from '../app/row-keys.ts';
import { formatTime } from '../app/format.ts';

export function TasksPage() {
  const tasks = useTasks((s) => s.tasks);
  const error = useTasks((s) => s.error);
  const refresh = useTasks((s) => s.refresh);
  const go = useRoute((s) => s.go);
  useEffect(() => {
    document.title = 'Tasks · Weft Studio';
    void refresh();
  }, [refresh]);
  return (
    <div className="page">
      <h1 className="page-title">Tasks</h1>
      <p className="page-sub">Steps waiting for a person, across every run.</p>
      {error !== null ? <div className="error-box">Could not list the tasks: {error}</div> : null}
      {tasks === null && error === null ? <div className="loading">Loading tasks…</div> : null}
      {tasks !== null && tasks.length === 0 ? (
        <div className="empty">
          <h2>Nothing waiting for a person</h2>
          <p>Human steps of running workflows appear here with their deadlines.</p>
        </div>
      ) : null}
      {tasks !== null && tasks.length > 0 ? (
        <table className="table" data-testid="task-list">
          <thead>
            <tr>
              <th>Task</th>
              <th>Run</th>
              <th>Assignee</th>
              <th>Deadline</th>
            </tr>
          </thead>
          <tbody>
            {tasks.map((t) => (
              <tr key={`${t.runId}/${t.stepId}`} tabIndex={0} {...rowKeys(() => go({ page: 'run', id: t.runId }))}>
                <td>
                  <div className="cell-title">{t.title ?? t.stepId}</div>
                  <div className="cell-sub">
                    {t.task} · <span className="mono">{t.stepId}</span>
                  </div>
                </td>
                <td>
                  <span className="mono">{t.runId}</span>
                </td>
                <td>{t.assignee ?? <span className="faint">anyone</span>}</td>
                <td>{t.deadline ? formatTime(t.deadline) : <span className="faint">none</span>}</td>
              </tr>
            ))}
          </tbody>
        </table>
      ) : null}
    </div>
  );
}
