import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { generatedDockerfiles, workspaceManifests } from './dockerfiles.js';

const root = resolve(import.meta.dirname, '../..');

describe('deploy/docker/*.Dockerfile', () => {
  const files = generatedDockerfiles();

  it('are what tools/deploy/dockerfiles.ts writes (run it after adding a workspace)', () => {
    const stale = Object.entries(files)
      .filter(([path, content]) => readFileSync(join(root, path), 'utf8') !== content)
      .map(([path]) => path);
    expect(stale).toEqual([]);
  });

  it('install before the sources: npm ci sees only the lockfile and every workspace manifest', () => {
    const workspaces = (
      JSON.parse(readFileSync(join(root, 'package.json'), 'utf8')) as {
        workspaces: string[];
      }
    ).workspaces;
    expect(workspaces).toEqual(['apps/*', 'libs/*']);
    for (const [path, content] of Object.entries(files)) {
      const lines = content.split('\n');
      const install = lines.findIndex((l) => l.startsWith('RUN') && l.includes('npm ci'));
      const sources = lines.indexOf('COPY . .');
      expect({ path, installBeforeSources: install > 0 && install < sources }).toEqual({
        path,
        installBeforeSources: true,
      });
      const copied = lines
        .slice(0, install)
        .filter((l) => l.startsWith('COPY '))
        .flatMap((l) => l.split(' ').slice(1, -1));
      expect(copied.sort()).toEqual(
        ['package.json', 'package-lock.json', ...workspaceManifests()].sort(),
      );
    }
  });
});
