import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useState } from 'react';
import { describe, expect, it, vi } from 'vitest';

import { seriousViolations } from '@/testing/axe';

import { Field } from './field';
import { FileDrop } from './file-drop';

const MB = 1024 * 1024;

function Harness({ onFile }: { onFile: (f: File | null) => void }) {
  const [file, setFile] = useState<File | null>(null);
  return (
    <Field label="Price list" hint="Name and price columns.">
      <FileDrop
        file={file}
        onChange={(f) => {
          setFile(f);
          onFile(f);
        }}
        accept={{ 'text/csv': ['.csv'] }}
        maxSize={MB}
        types="CSV"
      />
    </Field>
  );
}

const setup = (options: Parameters<typeof userEvent.setup>[0] = {}) => {
  const onFile = vi.fn();
  const user = userEvent.setup(options);
  const view = render(<Harness onFile={onFile} />);
  const zone = screen.getByRole('button', { name: 'Drop a file here, or choose one' });
  return { ...view, user, onFile, zone, input: screen.getByLabelText('Price list') };
};

const csv = (name = 'prices.csv', body = 'name,price\nTub,10\n') => new File([body], name, { type: 'text/csv' });
const sized = (file: File, size: number) => Object.defineProperty(file, 'size', { value: size });

describe('FileDrop', () => {
  it('states the types and the limit, and shows the chosen file with its size', async () => {
    const { user, onFile, zone, input } = setup();
    expect(zone).toHaveAccessibleDescription('Price list CSV · up to 1 MB Name and price columns.');
    expect(input).toHaveAttribute('type', 'file');

    const file = csv();
    await user.upload(input, file);
    await waitFor(() => expect(onFile).toHaveBeenCalledWith(file));
    expect(screen.getByText('Selected: prices.csv')).toBeInTheDocument();
    expect(screen.getByText('18 B')).toBeInTheDocument();
  });

  it('refuses a file over the limit before anything is uploaded', async () => {
    const { user, onFile, input, zone } = setup();
    await user.upload(input, sized(csv('big.csv'), 3 * MB));
    expect(await screen.findByRole('alert')).toHaveTextContent('“big.csv” is 3 MB: files can be at most 1 MB.');
    expect(onFile).not.toHaveBeenCalled();
    expect(zone).toHaveAccessibleDescription(/files can be at most 1 MB/);
  });

  it('refuses another type, chosen or dropped', async () => {
    const { user, onFile, input, zone } = setup({ applyAccept: false });
    await user.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('Unsupported file type: “notes.txt” is not a CSV file.');

    const photo = new File(['x'], 'photo.png', { type: 'image/png' });
    fireEvent.drop(zone, { dataTransfer: { files: [photo], items: [{ kind: 'file', type: photo.type, getAsFile: () => photo }], types: ['Files'] } });
    await waitFor(() => expect(screen.getByRole('alert')).toHaveTextContent('Unsupported file type: “photo.png” is not a CSV file.'));
    expect(onFile).not.toHaveBeenCalled();

    // A good file afterwards takes the message away.
    await user.upload(input, csv());
    await waitFor(() => expect(screen.queryByRole('alert')).not.toBeInTheDocument());
    expect(onFile).toHaveBeenCalledTimes(1);
  });

  it('takes a dropped file', async () => {
    const { onFile, zone } = setup();
    const file = csv('dropped.csv');
    fireEvent.drop(zone, { dataTransfer: { files: [file], items: [{ kind: 'file', type: file.type, getAsFile: () => file }], types: ['Files'] } });
    await waitFor(() => expect(onFile).toHaveBeenCalledWith(file));
    expect(screen.getByText('Selected: dropped.csv')).toBeInTheDocument();
  });

  it('removes the chosen file, focus back on the zone', async () => {
    const { user, onFile, input, zone } = setup();
    await user.upload(input, csv());
    await user.click(await screen.findByRole('button', { name: 'Remove prices.csv' }));
    expect(onFile).toHaveBeenLastCalledWith(null);
    expect(screen.queryByText('Selected: prices.csv')).not.toBeInTheDocument();
    expect(zone).toHaveFocus();
  });

  it('is a button: Tab reaches it, Enter and Space open the file picker', async () => {
    const { user, zone, input } = setup();
    const click = vi.spyOn(input, 'click');
    await user.tab();
    expect(zone).toHaveFocus();
    await user.keyboard('{Enter}');
    expect(click).toHaveBeenCalledTimes(1);
    await user.keyboard(' ');
    expect(click).toHaveBeenCalledTimes(2);
  });

  it('has no serious axe violations, empty, refusing or holding a file', async () => {
    const { user, container, input } = setup({ applyAccept: false });
    expect(await seriousViolations(container)).toEqual([]);
    await user.upload(input, new File(['x'], 'notes.txt', { type: 'text/plain' }));
    await screen.findByRole('alert');
    expect(await seriousViolations(container)).toEqual([]);
    await user.upload(input, csv());
    await screen.findByText('Selected: prices.csv');
    expect(await seriousViolations(container)).toEqual([]);
  });
});
