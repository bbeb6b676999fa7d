/** pdf.js's worker module ships no types; it is only imported for its side effect (`globalThis.pdfjsWorker`). */
declare module 'pdfjs-dist/legacy/build/pdf.worker.mjs';
