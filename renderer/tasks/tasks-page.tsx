// The Tasks page is the inbox (task-inbox.tsx): tasks across runs, answered in place.
export { TaskInbox as TasksPage } from './task-inbox.tsx';
