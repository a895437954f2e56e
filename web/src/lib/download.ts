import { buildUrl, errorFromResponse, type QueryParams } from './api-client';

/** The file name from a Content-Disposition header, if it names one. */
export function fileNameFrom(header: string | null): string | null {
  if (!header) return null;
  const match = /filename\*?=(?:UTF-8'')?"?([^";]+)"?/i.exec(header);
  return match?.[1] ? decodeURIComponent(match[1]) : null;
}

/** Saves `blob` as a file named `name` through a temporary link. */
function saveBlob(name: string, blob: Blob): void {
  const href = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = href;
  link.download = name;
  document.body.append(link);
  link.click();
  link.remove();
  URL.revokeObjectURL(href);
}

/** Saves text made in the browser (generated content, insights) as a file named `name`. */
export function saveTextFile(name: string, text: string): void {
  saveBlob(name, new Blob([text], { type: 'text/plain;charset=utf-8' }));
}

/**
 * Downloads a file the server generates (CSV exports, PDFs): fetched with the session
 * cookie, then saved under the server's file name (else `fallbackName`).
 * Returns the name it was saved under. A non-OK answer throws `ApiError`.
 */
export async function downloadFile(
  url: string,
  fallbackName: string,
  params?: QueryParams,
  accept = 'text/csv',
): Promise<string> {
  const response = await fetch(buildUrl(url, params), {
    credentials: 'include',
    headers: { Accept: accept },
  });
  // Read as bytes: the file is saved as sent, never parsed.
  const blob = await response.blob();
  if (!response.ok) throw errorFromResponse(response.status, response.statusText, await blob.text());
  const name = fileNameFrom(response.headers.get('Content-Disposition')) ?? fallbackName;
  saveBlob(name, blob);
  return name;
}
