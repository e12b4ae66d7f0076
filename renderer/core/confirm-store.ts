// The app's own yes/no question, asked from code that is not a component (the leave guard, import,
// delete): `askConfirm` shows the dialog (renderer/shell/confirm-dialog.tsx, rendered once by the
// app) and resolves with the answer; `askText` asks for one line (a new name), checked as it is
// typed. A question asked while another is open answers the older one "no".
import { create } from 'zustand';

export interface ConfirmAsk {
  title: string;
  body: string;
  /** The button that does it ("Leave", "Replace"). */
  confirm: string;
  /** The button that keeps things as they are ("Stay", "Cancel"); it has the focus. */
  cancel: string;
  /** The confirm button is drawn as a destructive action. */
  danger?: boolean;
}

/** One line to type, with what is wrong with it (null when it may be sent). */
export interface TextInput {
  label: string;
  initial: string;
  problem(value: string): string | null;
}

interface ConfirmState {
  /** `answer(true, value)` for a question with an input. */
  pending: (ConfirmAsk & { input?: TextInput; answer(ok: boolean, value?: string): void }) | null;
}

export const useConfirm = create<ConfirmState>(() => ({ pending: null }));

/** Asks in the app's dialog; true when the user chose `confirm`, false for `cancel`, Escape or a click outside. */
export function askConfirm(ask: ConfirmAsk): Promise<boolean> {
  useConfirm.getState().pending?.answer(false);
  return new Promise((resolve) => {
    const answer = (ok: boolean): void => {
      if (useConfirm.getState().pending?.answer === answer) useConfirm.setState({ pending: null });
      resolve(ok);
    };
    useConfirm.setState({ pending: { ...ask, answer } });
  });
}

/** Asks for one line in the app's dialog; the line when the user chose `confirm` (only with no problem), null otherwise. */
export function askText(ask: ConfirmAsk & { input: TextInput }): Promise<string | null> {
  useConfirm.getState().pending?.answer(false);
  return new Promise((resolve) => {
    const answer = (ok: boolean, value?: string): void => {
      if (useConfirm.getState().pending?.answer === answer) useConfirm.setState({ pending: null });
      resolve(ok && value !== undefined ? value : null);
    };
    useConfirm.setState({ pending: { ...ask, answer } });
  });
}
