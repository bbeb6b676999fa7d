/**
 * Scripts evaluated inside the page. They are strings because this project's TypeScript has no DOM
 * library (the server code must not see browser globals).
 */

/** Drops files (name, MIME type, base64 bytes) on the drop zone as a real drag and drop would. */
export function dropFilesScript(files: { name: string; type: string; base64: string }[]): string {
  return `(() => {
    const files = ${JSON.stringify(files)};
    const data = new DataTransfer();
    for (const f of files) {
      const bytes = Uint8Array.from(atob(f.base64), (c) => c.charCodeAt(0));
      data.items.add(new File([bytes], f.name, { type: f.type }));
    }
    const zone = document.querySelector('[data-testid="dropzone"]');
    for (const type of ['dragenter', 'dragover', 'drop']) {
      zone.dispatchEvent(new DragEvent(type, { dataTransfer: data, bubbles: true, cancelable: true }));
    }
  })()`;
}

/**
 * Replaces fetch for POST /api/qa/ask with a scripted event stream (docs/events.md), and records
 * when the first delta was handed to the page (`__deltaAt`) and when the answer's first text was
 * painted (`__paintedAt`, the frame after it entered the DOM). A script ending in `hang` keeps the
 * stream open until the request is aborted.
 */
export function scriptedAskScript(
  frames: ({ event: string; data: unknown; delayMs?: number } | 'hang')[],
): string {
  return `(() => {
    const frames = ${JSON.stringify(frames)};
    const realFetch = window.fetch.bind(window);
    window.__deltaAt = undefined;
    window.__paintedAt = undefined;
    new MutationObserver(() => {
      if (window.__paintedAt !== undefined || window.__deltaAt === undefined) return;
      const answers = document.querySelectorAll('[data-testid="answer"]');
      const last = answers[answers.length - 1];
      if (last && last.textContent.trim().length > 0) {
        requestAnimationFrame(() => { window.__paintedAt = performance.now(); });
      }
    }).observe(document, { subtree: true, childList: true, characterData: true });
    window.fetch = (input, init) => {
      const url = typeof input === 'string' ? input : input.url;
      if (!url.endsWith('/api/qa/ask')) return realFetch(input, init);
      const encoder = new TextEncoder();
      const signal = init && init.signal;
      const body = new ReadableStream({
        async start(controller) {
          for (const frame of frames) {
            if (frame === 'hang') {
              await new Promise((resolve) => signal && signal.addEventListener('abort', resolve));
              controller.error(new DOMException('aborted', 'AbortError'));
              return;
            }
            if (frame.delayMs) await new Promise((resolve) => setTimeout(resolve, frame.delayMs));
            if (frame.event === 'delta' && window.__deltaAt === undefined) window.__deltaAt = performance.now();
            controller.enqueue(encoder.encode('event: ' + frame.event + '\\ndata: ' + JSON.stringify(frame.data) + '\\n\\n'));
          }
          controller.close();
        },
      });
      return Promise.resolve(new Response(body, { headers: { 'Content-Type': 'text/event-stream' } }));
    };
  })()`;
}
