// Deciding: the finished files of the ledger planned by core's planFolder (the same layout and
// rules as Folder Drop and /instructions), and what each planned file's ledger entry says now.

import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { documentHeadBytes, planFolder, publishingMessages, type FolderPlan, type PlannedManifest, type PlannedPropertyDocument } from '@everest/core/domain';
import type { SyncContext } from './context';
import type { Ledger, LedgerEntry } from './ledger';

/** The first bytes of each finished file, kept in memory for core's type check. */
export class Heads {
  private readonly heads = new Map<string, Uint8Array>();

  set(relative: string, head: Uint8Array): void {
    this.heads.set(relative, head);
  }

  get(relative: string): Uint8Array | undefined {
    return this.heads.get(relative);
  }

  /** Reads the heads the ledger's files lack (after a restart): 4,100 bytes a file. */
  async fill(folder: string, entries: readonly LedgerEntry[]): Promise<void> {
    for (const entry of entries) {
      if (entry.missing || entry.sha256 === null || this.heads.has(entry.path)) continue;
      try {
        const bytes = await readFile(path.join(folder, entry.path));
        this.heads.set(entry.path, new Uint8Array(bytes.subarray(0, documentHeadBytes)));
      } catch {
        // Gone: the next scan marks it missing.
      }
    }
  }
}

/** The plan of the ledger's finished files; a file whose end has long been missing is left out. */
export function currentPlan(ledger: Ledger, heads: Heads, rootName: string, propertyNames: string[]): FolderPlan {
  const entries = ledger
    .all()
    .filter((e) => !e.missing && e.sha256 !== null && !e.incomplete)
    .map((e) => ({ path: e.path, size: e.size, sha256: e.sha256 ?? undefined, head: heads.get(e.path) }));
  return planFolder({ rootName, entries, propertyNames });
}

/**
 * Records what the plan says of each file that is not sent (unmatched: needs attention; a copy
 * of another file for the same property: skipped by core's twin rule) and answers the property
 * documents and manifests to look at. Each sentence is said once, when it changes.
 */
export function recordPlan(ctx: SyncContext, plan: FolderPlan): { propertyDocuments: PlannedPropertyDocument[]; manifests: PlannedManifest[] } {
  for (const { entry, reason } of plan.unmatched) {
    const current = ctx.ledger.get(entry.path)!;
    if (current.kind === 'unmatched' && current.state === 'needs-attention' && current.lastError === reason && !current.twinOf) continue;
    ctx.setState(entry.path, { kind: 'unmatched', state: 'needs-attention', lastError: reason, twinOf: null }, reason);
  }
  for (const document of plan.propertyDocuments) {
    const current = ctx.ledger.get(document.entry.path)!;
    if (current.kind !== 'property') {
      ctx.ledger.update(current.path, { kind: 'property', state: current.state === 'needs-attention' ? 'waiting' : current.state, lastError: null, twinOf: null });
    }
  }
  // Copies of a property document (same content, same property): the original is published,
  // the copy is skipped with core's sentence; it is looked at again when it changes.
  for (const { entry, of } of plan.duplicates) {
    const current = ctx.ledger.get(entry.path)!;
    if (current.state === 'published') continue;
    const reason = publishingMessages.twinForProperty(of);
    if (current.twinOf === of && current.lastError === reason) continue;
    ctx.setState(entry.path, { kind: 'unmatched', state: 'needs-attention', lastError: reason, twinOf: of }, reason);
  }
  return { propertyDocuments: plan.propertyDocuments, manifests: plan.manifests };
}
