import { Alert, Button, Card, Empty, Form, InputNumber, Skeleton } from 'antd';
import { useCallback, useEffect, useRef, useState } from 'react';
import { moderationSettings, recheckStatus, saveModerationSettings, startRecheck } from '@/services/moderation';
import type { ModerationSettings, RecheckStatus } from '#contract/moderation';
import { message } from '@/utils/feedback';
import { formatDate } from '@/utils/format';

/** How often a running 重新检查 is asked for its progress. */
const POLL_MS = 1000;

function recheckText(status: RecheckStatus): string {
  if (status.running) return `正在重新检查：已检查 ${status.checked} 条，${status.flagged} 条进入审核台`;
  if (status.error) return `重新检查失败：${status.error}`;
  return `重新检查完成（${formatDate(status.finishedAt)}）：共检查 ${status.checked} 条，${status.flagged} 条进入审核台`;
}

/** 重新检查: runs the word list over what was stored before it (imported content); hits go to 审核台. */
function Recheck() {
  const [status, setStatus] = useState<RecheckStatus | null>(null);
  const [starting, setStarting] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>();

  const follow = useCallback((next: RecheckStatus) => {
    setStatus(next);
    clearTimeout(timer.current);
    if (next.running) {
      timer.current = setTimeout(() => {
        recheckStatus()
          .then(follow)
          .catch(() => undefined);
      }, POLL_MS);
    }
  }, []);

  useEffect(() => {
    recheckStatus()
      .then(follow)
      .catch(() => undefined);
    return () => clearTimeout(timer.current);
  }, [follow]);

  const start = async () => {
    setStarting(true);
    try {
      follow(await startRecheck({}));
    } catch {
      // The request layer has shown why (one run at a time: 重新检查正在进行中).
    } finally {
      setStarting(false);
    }
  };

  const shown = status && (status.running || status.finishedAt !== null);
  return (
    <Card title="重新检查" style={{ marginTop: 16 }}>
      <p>
        规则建立之前已有的内容（例如导入的数据）不会自动检查。重新检查会用当前的敏感词检查全部问答、评论和用户资料，命中的内容进入审核台（账号规则只适用于新发布的内容）。
      </p>
      <Button loading={starting} disabled={status?.running} onClick={start}>
        重新检查
      </Button>
      {shown ? (
        <Alert
          role="status"
          style={{ marginTop: 16 }}
          type={status.error ? 'error' : status.running ? 'info' : 'success'}
          message={recheckText(status)}
        />
      ) : null}
    </Card>
  );
}

/** 账号规则 (GET/PATCH /api/settings/moderation): 0 turns a rule off. Saving needs a fresh proof. */
export default function AccountRules() {
  const [form] = Form.useForm<ModerationSettings>();
  const [loaded, setLoaded] = useState<ModerationSettings | null>(null);
  const [failed, setFailed] = useState(false);
  const [saving, setSaving] = useState(false);

  const load = useCallback(() => {
    setFailed(false);
    moderationSettings()
      .then((settings) => {
        setLoaded(settings);
        form.setFieldsValue(settings);
      })
      .catch(() => setFailed(true));
  }, [form]);

  useEffect(load, [load]);

  const save = async (values: ModerationSettings) => {
    setSaving(true);
    try {
      const saved = await saveModerationSettings({ holdFirstPosts: values.holdFirstPosts, holdLinksDays: values.holdLinksDays });
      setLoaded(saved);
      form.setFieldsValue(saved);
      message.success('账号规则已保存');
    } catch {
      // The request layer has shown why; the form keeps what was typed.
    } finally {
      setSaving(false);
    }
  };

  return (
    <>
      <Card title="账号规则">
        {failed ? (
          <Empty description="账号规则加载失败">
            <Button onClick={load}>重试</Button>
          </Empty>
        ) : !loaded ? (
          <Skeleton active />
        ) : (
          <Form form={form} name="moderation-account" layout="vertical" onFinish={save} style={{ maxWidth: 560 }}>
            <Form.Item
              name="holdFirstPosts"
              label="新账号的前 N 条问答和评论先审后发"
              extra="填 0 关闭此规则"
              rules={[{ required: true, message: '请输入条数' }]}
            >
              <InputNumber min={0} max={100} precision={0} addonAfter="条" style={{ width: 200 }} />
            </Form.Item>
            <Form.Item
              name="holdLinksDays"
              label="注册不满 D 天的账号发布带链接的内容先审后发"
              extra="填 0 关闭此规则"
              rules={[{ required: true, message: '请输入天数' }]}
            >
              <InputNumber min={0} max={3650} precision={0} addonAfter="天" style={{ width: 200 }} />
            </Form.Item>
            <p>被标记为「先审后发」的用户，发布的内容总是先审后发。</p>
            <Button type="primary" htmlType="submit" loading={saving}>
              保存
            </Button>
          </Form>
        )}
      </Card>
      <Recheck />
    </>
  );
}
