import { vi } from 'vitest';

/** Captures the file names the app saves (jsdom cannot follow a download link). */
export function captureDownloads(): string[] {
  const names: string[] = [];
  vi.spyOn(HTMLAnchorElement.prototype, 'click').mockImplementation(function (this: HTMLAnchorElement) {
    names.push(this.download);
  });
  return names;
}
