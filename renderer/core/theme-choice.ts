// The theme a user can pick, apart from the store so DOM-free modules can name it.
export type ThemeChoice = 'system' | 'light' | 'dark';
