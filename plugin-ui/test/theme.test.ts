import { beforeEach, describe, expect, it } from 'vitest';
import { applyTheme, currentTheme, normalizeTheme, otherTheme, resolveTheme, storeTheme, storedTheme, THEME_KEY } from '../src/theme';

describe('theme', () => {
  beforeEach(() => {
    localStorage.clear();
    document.body.removeAttribute('cds-theme');
    document.documentElement.removeAttribute('cds-theme');
  });
  it('normalises the vSphere Client theme names', () => {
    expect(normalizeTheme('dark')).toBe('dark');
    expect(normalizeTheme('Light')).toBe('light');
    expect(normalizeTheme('default')).toBe('light');
    expect(normalizeTheme('neon')).toBeNull();
    expect(normalizeTheme(undefined)).toBeNull();
  });
  it('host theme wins, then the stored choice, then the system preference', () => {
    expect(resolveTheme({ host: 'dark', stored: 'light', prefersDark: false })).toBe('dark');
    expect(resolveTheme({ host: null, stored: 'dark', prefersDark: false })).toBe('dark');
    expect(resolveTheme({ stored: 'garbage', prefersDark: true })).toBe('dark');
    expect(resolveTheme({})).toBe('light');
  });
  it('applies cds-theme to html and body and reads it back', () => {
    applyTheme('dark');
    expect(document.body.getAttribute('cds-theme')).toBe('dark');
    expect(document.documentElement.getAttribute('cds-theme')).toBe('dark');
    expect(currentTheme()).toBe('dark');
    applyTheme(otherTheme(currentTheme()));
    expect(currentTheme()).toBe('light');
  });
  it('remembers the choice', () => {
    expect(storedTheme()).toBeNull();
    storeTheme('dark');
    expect(localStorage.getItem(THEME_KEY)).toBe('dark');
    expect(storedTheme()).toBe('dark');
    const broken = { getItem: () => { throw new Error('denied'); }, setItem: () => { throw new Error('denied'); } };
    expect(storedTheme(broken)).toBeNull();
    expect(() => storeTheme('light', broken)).not.toThrow();
  });
});
