import { readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from '@jest/globals';
import { NODE_IMAGE, generatedDockerfiles, workspaceManifests } from './dockerfiles.js';

const root = resolve(import.meta.dirname, '../..');

describe('deploy/docker/*.Dockerfile', () => {
  const files = generatedDockerfiles();

  it('are what tools/deploy/dockerfiles.ts writes (run it after adding a workspace)', () => {
    const stale = Object.entries(files)
      .filter(([path, content]) => readFileSync(join(root, path), 'utf8') !== content)
      .map(([path]) => path);
    expect(stale).toEqual([]);
  });

  it('build from a base image pinned by digest, in both stages', () => {
    expect(NODE_IMAGE).toMatch(/^node:22[0-9.]*-bookworm-slim@sha256:[0-9a-f]{64}$/);
    for (const [path, content] of Object.entries(files)) {
      const from = content.split('\n').filter((l) => l.startsWith('FROM '));
      expect({ path, from }).toEqual({
        path,
        from: ['FROM ${NODE_IMAGE} AS build', 'FROM ${NODE_IMAGE} AS runtime'],
      });
      expect(content).toContain(`ARG NODE_IMAGE=${NODE_IMAGE}\n`);
    }
  });

  it('expose the public, internal (where there is one) and metrics ports', () => {
    const exposed = Object.fromEntries(
      Object.entries(files).map(([path, content]) => [path, /^EXPOSE (.*)$/m.exec(content)?.[1]]),
    );
    expect(exposed).toEqual({
      'deploy/docker/gateway.Dockerfile': '8080 9080',
      'deploy/docker/auth-service.Dockerfile': '8081 8181 9081',
      'deploy/docker/did-service.Dockerfile': '8082 8182 9082',
      'deploy/docker/token-rpc.Dockerfile': '8083 8183 9083',
      'deploy/docker/block-rpc.Dockerfile': '8084 9084',
    });
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
