// A field's text while it is being typed. It follows the document (undo, the JSON view, another
// panel) except while the text already means what the document holds ("90s" stays "90s" after
// it is written as 90000, rather than jumping to "1m 30s" under the cursor).
import { useState } from 'react';

export interface Draft {
  text: string;
  error: string | null;
  setText(text: string): void;
  setError(error: string | null): void;
}

export function useDraft<T>(value: T | undefined, format: (value: T | undefined) => string, means: (text: string, value: T | undefined) => boolean): Draft {
  const [text, setText] = useState(() => format(value));
  const [error, setError] = useState<string | null>(null);
  const [seen, setSeen] = useState<{ value: T | undefined }>({ value });
  if (seen.value !== value) {
    // Adjusting state while rendering (React's pattern for state derived from props).
    setSeen({ value });
    if (!means(text, value)) {
      setText(format(value));
      setError(null);
    }
  }
  return { text, error, setText, setError };
}
