/** A one-line progress bar on a terminal; plain lines otherwise (logs, CI, pipes). */
export class ProgressBar {
  private done = 0;
  private readonly counts = new Map<string, number>();
  private readonly tty: boolean;

  constructor(
    private total: number,
    private readonly out: NodeJS.WriteStream = process.stderr,
  ) {
    this.tty = Boolean(out.isTTY);
  }

  /** Counts items found along the way (an e-mail's attachments) into the total. */
  grow(count: number): void {
    this.total += count;
  }

  /** Records one finished item and redraws. */
  tick(label: string, status: string): void {
    this.done += 1;
    this.counts.set(status, (this.counts.get(status) ?? 0) + 1);
    if (!this.tty) {
      this.out.write(`[${this.done}/${this.total}] ${status.padEnd(9)} ${label}\n`);
      return;
    }
    const width = 28;
    const filled = this.total === 0 ? width : Math.round((this.done / this.total) * width);
    const tally = [...this.counts].map(([s, n]) => `${s} ${n}`).join(', ');
    const line = `[${'#'.repeat(filled)}${'-'.repeat(width - filled)}] ${this.done}/${this.total} ${tally}  ${label}`;
    this.out.write(`\r\u001b[2K${line.slice(0, (this.out.columns ?? 120) - 1)}`);
  }

  finish(): void {
    if (this.tty) this.out.write('\n');
  }
}
