import { FileUp, X } from 'lucide-react';
import { useId, useState } from 'react';
import { ErrorCode, useDropzone, type Accept, type FileRejection } from 'react-dropzone';

import { formatBytes } from '@/lib/format';

import { labelIdFor } from './field';

type FileDropProps = {
  /** From `Field`: the file input's id (its label names it), invalid state and description. */
  id?: string;
  'aria-invalid'?: boolean;
  'aria-describedby'?: string;
  /** Names the file input when no `Field` label does. */
  inputLabel?: string;
  /** The chosen file, or null. */
  file: File | null;
  /** A file that passed the checks, or null when it is removed. */
  onChange: (file: File | null) => void;
  /** MIME types and their extensions, e.g. `{ 'text/csv': ['.csv'] }`. */
  accept: Accept;
  /** The largest file taken, in bytes: the api's limit, so a larger one is refused before uploading. */
  maxSize: number;
  /** The accepted types as a reader says them: "CSV", "JPG, PNG, PDF, DOC or DOCX". */
  types: string;
  /** What the drop zone says (and is called); "Drop a file here, or choose one" by default. */
  prompt?: string;
  disabled?: boolean;
};

/** Why a file was refused, in words. */
function refusal({ file, errors }: FileRejection, types: string, maxSize: number): string {
  const codes = errors.map((e) => e.code);
  if (codes.includes(ErrorCode.TooManyFiles)) return 'Choose one file at a time.';
  if (codes.includes(ErrorCode.FileInvalidType)) return `Unsupported file type: “${file.name}” is not a ${types} file.`;
  if (codes.includes(ErrorCode.FileTooLarge)) {
    return `“${file.name}” is ${formatBytes(file.size)}: files can be at most ${formatBytes(maxSize)}.`;
  }
  return errors[0]?.message ?? `“${file.name}” cannot be used.`;
}

/**
 * One file, dropped or chosen: the zone is a button (click, Enter or Space opens the browser's
 * picker) and a drop target; it states the types and the size limit and refuses other files with
 * a message before anything is uploaded. The chosen file shows with its size and a Remove button.
 * A real `<input type="file">` stays in the page (labelled by the `Field`), so a label click and
 * testing-library's `upload` work on it.
 */
export function FileDrop({
  id,
  inputLabel,
  file,
  onChange,
  accept,
  maxSize,
  types,
  prompt = 'Drop a file here, or choose one',
  disabled = false,
  'aria-invalid': invalid,
  'aria-describedby': describedBy,
}: FileDropProps) {
  const promptId = useId();
  const hintId = useId();
  const refusalId = useId();
  const [refused, setRefused] = useState<string | null>(null);
  const { getRootProps, getInputProps, isDragActive, rootRef } = useDropzone({
    accept,
    maxSize,
    multiple: false,
    disabled,
    onDropAccepted: ([accepted]) => {
      setRefused(null);
      if (accepted) onChange(accepted);
    },
    onDropRejected: ([rejected]) => setRefused(rejected ? refusal(rejected, types, maxSize) : null),
  });
  const description = [hintId, refused ? refusalId : null, describedBy].filter(Boolean).join(' ');

  const remove = () => {
    onChange(null);
    setRefused(null);
    // The Remove button goes away with the file: focus goes back to the zone.
    rootRef.current.focus();
  };

  return (
    <div className="mt-1 space-y-2">
      {/* Outside the zone: a button may not hold another focusable control. */}
      <input {...getInputProps({ id, disabled, 'aria-label': inputLabel, 'aria-invalid': invalid, 'aria-describedby': description })} />
      <div
        {...getRootProps({
          role: 'button',
          // Kept in the tab order while disabled (e.g. during an upload), so focus is not lost.
          tabIndex: 0,
          'aria-labelledby': promptId,
          // The field's label describes the zone (naming it would give the label two controls).
          'aria-describedby': [id ? labelIdFor(id) : null, description].filter(Boolean).join(' '),
          'aria-disabled': disabled || undefined,
        })}
        className={`flex cursor-pointer flex-col items-center gap-1 rounded-lg border-2 border-dashed px-4 py-5 text-center text-sm focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-indigo-600 aria-disabled:cursor-not-allowed aria-disabled:opacity-60 ${
          isDragActive ? 'border-indigo-500 bg-indigo-50' : invalid || refused ? 'border-rose-400' : 'border-slate-300 hover:border-slate-400'
        }`}
      >
        <FileUp aria-hidden="true" className="size-5 text-slate-500" />
        <span id={promptId} className="font-medium text-slate-800">
          {prompt}
        </span>
      </div>
      {/* Outside the zone: a control named by its content must show no other text (axe's label-in-name). */}
      <p id={hintId} className="text-xs text-slate-600">
        {types} · up to {formatBytes(maxSize)}
      </p>
      {refused ? (
        <p id={refusalId} role="alert" className="text-sm text-rose-600">
          {refused}
        </p>
      ) : null}
      <div aria-live="polite">
        {file ? (
          <div className="flex items-center justify-between gap-2 rounded-md bg-slate-50 px-3 py-2 text-sm ring-1 ring-slate-200">
            <span className="min-w-0">
              <span className="block font-medium break-all text-slate-900">Selected: {file.name}</span>
              <span className="text-xs text-slate-600">{formatBytes(file.size)}</span>
            </span>
            <button
              type="button"
              onClick={remove}
              disabled={disabled}
              aria-label={`Remove ${file.name}`}
              className="shrink-0 rounded p-1 text-slate-500 hover:bg-slate-200 hover:text-rose-700 focus-visible:outline-2 focus-visible:outline-indigo-600 disabled:cursor-not-allowed disabled:opacity-50"
            >
              <X aria-hidden="true" className="size-4" />
            </button>
          </div>
        ) : null}
      </div>
    </div>
  );
}
