import SessionTable from '@/components/SessionTable';
import { endMyOtherSessions, endMySession, listMySessions } from '@/services/account';

/** 登录设备: this admin's live sessions; any but this one can be ended. */
export default function SessionsTab() {
  return <SessionTable load={listMySessions} endOne={endMySession} endAll={endMyOtherSessions} endAllText="退出其他所有设备" />;
}
