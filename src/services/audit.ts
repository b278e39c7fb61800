import type { AuditChainReport, AuditEntity, AuditEntry, AuditListQuery, BatchResult, SecurityEvent } from '#contract/audit';
import { api } from './api';
import { fetchTable, type TableParams, type TableResult } from './table';

/** One page of the audit log for ProTable, newest first, filtered as AuditListQuery allows. */
export function listAudit(params: TableParams<AuditListQuery>): Promise<TableResult<AuditEntry>> {
  return fetchTable<AuditEntry>('/api/audit', params);
}

/** One record's history, newest first. */
export function recordHistory(entity: AuditEntity, id: string): Promise<AuditEntry[]> {
  return api<AuditEntry[]>(`/api/audit/${entity}/${encodeURIComponent(id)}`);
}

/** 撤销此修改: puts the entry's fields back; answers the record's history after it. */
export function revertAudit(auditId: string): Promise<AuditEntry[]> {
  return api<AuditEntry[]>(`/api/audit/${encodeURIComponent(auditId)}/revert`, { method: 'POST' });
}

export type BatchResource = 'user' | 'book' | 'interview' | 'issue' | 'comment';
export type BatchAction = 'delete' | 'enable' | 'disable' | 'approve' | 'unapprove';

/** A bulk action on the selected rows: all of them or none. */
export function batch(resource: BatchResource, action: BatchAction, ids: string[]): Promise<BatchResult> {
  return api<BatchResult>(`/api/${resource}/batch`, { method: 'POST', data: { action, ids } });
}

/** 安全事件: refused calls, newest first (a super admin's). */
export function listSecurityEvents(params: { current?: number; pageSize?: number }): Promise<TableResult<SecurityEvent>> {
  return fetchTable<SecurityEvent>('/api/audit', { ...params, security: true });
}

/** 核对日志链: the hash chain checked from end to end (a super admin's). */
export function verifyAuditChain(): Promise<AuditChainReport> {
  return api<AuditChainReport>('/api/audit/verify');
}
