#!/usr/bin/env node
/**
 * Adds to package-lock.json the platform packages of other systems (win32, darwin, musl, ...) that
 * npm leaves out when the registry it uses does not serve them. Without their entries `npm ci`
 * refuses the lock as out of sync; with them, it skips each one whose os / cpu / libc do not match.
 * Run after `npm install` changes dependencies: `npm run lock:complete`.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import semver from 'semver';

const path = new URL('../package-lock.json', import.meta.url);
const lock = JSON.parse(readFileSync(path, 'utf8'));
const packages = lock.packages;

const OS = [
  'win32',
  'darwin',
  'linux',
  'android',
  'freebsd',
  'openbsd',
  'sunos',
  'aix',
  'netbsd',
  'openharmony',
];
const CPU = ['x64', 'arm64', 'ia32', 'arm', 'riscv64', 'ppc64', 's390x', 'loong64', 'wasm32', 'mips64el'];

function platformOf(name) {
  const parts = name.split('/').pop().split('-');
  const os = parts.find((p) => OS.includes(p));
  const cpu = parts.find((p) => CPU.includes(p));
  const entry = {};
  if (os) entry.os = [os];
  if (cpu) entry.cpu = [cpu];
  if (parts.includes('musl')) entry.libc = ['musl'];
  else if (parts.includes('gnu') || parts.includes('gnueabihf')) entry.libc = ['glibc'];
  return entry;
}

/** Where npm looks for `name` from a package at `location`: its own folder, then each ancestor's. */
function candidates(location, name) {
  const found = [];
  let at = location;
  for (;;) {
    found.push(`${at ? `${at}/` : ''}node_modules/${name}`);
    if (!at) return found;
    const cut = at.lastIndexOf('/node_modules/');
    at = cut < 0 ? '' : at.slice(0, cut);
  }
}

let added = 0;
for (const [location, pkg] of Object.entries(packages)) {
  for (const [name, range] of Object.entries(pkg.optionalDependencies ?? {})) {
    const present = candidates(location, name).filter((at) => packages[at]);
    if (present.some((at) => semver.satisfies(packages[at].version ?? '0.0.0', range))) continue;
    // Hoisted to the top when nothing else claims the name there; nested under its dependent when a
    // different version holds the top (npm did the same for the installed platform's package).
    const at = present.length === 0 ? `node_modules/${name}` : `${location}/node_modules/${name}`;
    const version = semver.minVersion(range)?.version ?? range;
    const entry = { version, ...platformOf(name), optional: true };
    if (pkg.dev) entry.dev = true;
    packages[at] = entry;
    added += 1;
  }
}
lock.packages = Object.fromEntries(
  Object.entries(packages).sort(([a], [b]) => (a === '' ? -1 : b === '' ? 1 : a.localeCompare(b))),
);
writeFileSync(path, `${JSON.stringify(lock, null, 2)}\n`);
console.log(`package-lock.json: ${added} platform package entr${added === 1 ? 'y' : 'ies'} added`);
