/** A file to upload with the name it is stored under (its path inside a dropped folder). */
export interface PickedFile {
  file: File;
  name: string;
}

/**
 * The files of a drop, folders walked recursively (their relative paths kept as names, so that a
 * dropped folder keeps its layout in the bucket). Falls back to the flat file list without entries.
 */
export async function droppedFiles(data: DataTransfer): Promise<PickedFile[]> {
  const entries = [...data.items]
    .filter((item) => item.kind === 'file')
    .map((item) => item.webkitGetAsEntry?.())
    .filter((entry): entry is FileSystemEntry => Boolean(entry));
  if (entries.length === 0) return [...data.files].map((file) => ({ file, name: file.name }));
  const out: PickedFile[] = [];
  for (const entry of entries) await walk(entry, '', out);
  return out;
}

async function walk(entry: FileSystemEntry, prefix: string, out: PickedFile[]): Promise<void> {
  if (entry.isFile) {
    const file = await new Promise<File>((resolve, reject) =>
      (entry as FileSystemFileEntry).file(resolve, reject),
    );
    out.push({ file, name: `${prefix}${entry.name}` });
    return;
  }
  if (!entry.isDirectory || entry.name.startsWith('.')) return;
  const reader = (entry as FileSystemDirectoryEntry).createReader();
  for (;;) {
    // readEntries answers in batches (100 in Chromium) until it answers an empty one.
    const batch = await new Promise<FileSystemEntry[]>((resolve, reject) =>
      reader.readEntries(resolve, reject),
    );
    if (batch.length === 0) break;
    for (const child of batch) await walk(child, `${prefix}${entry.name}/`, out);
  }
}
