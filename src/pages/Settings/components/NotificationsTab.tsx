import { ProTable } from '@ant-design/pro-components';
import { Alert, Button, Checkbox, Drawer, Form, Input, Modal, Popconfirm, Select, Space, Switch, Table, Tag, Typography } from 'antd';
import type { ColumnsType } from 'antd/es/table';
import { useCallback, useEffect, useState } from 'react';
import {
  WEBHOOK_DELIVERY_EVENTS,
  WEBHOOK_EVENT_NAMES,
  WEBHOOK_KINDS,
  WEBHOOK_NAME_MAX_LENGTH,
  WEBHOOK_SECRET_MAX_LENGTH,
  WEBHOOK_STATES,
  WEBHOOK_URL_MAX_LENGTH,
  type Webhook,
  type WebhookDelivery,
  type WebhookEventName,
  type WebhookKind,
} from '#contract/webhook';
import { alreadyShown } from '@/services/api';
import {
  createWebhook,
  deleteWebhook,
  listDeliveries,
  listWebhooks,
  rotateWebhookSecret,
  testWebhook,
  updateWebhook,
} from '@/services/webhook';
import { formatDate } from '@/utils/format';
import { message } from '@/utils/feedback';

// Preset backgrounds with darker text, as AdminList's orange tag: axe finds antd's own green text short of AA contrast.
const STATE_COLORS = { pending: 'blue', delivered: 'green', failed: 'red' } as const;
const STATE_TEXT = { pending: '#003eb3', delivered: '#135200', failed: '#a8071a' } as const;
const URL_HINTS: Record<WebhookKind, string> = {
  wecom: '群机器人的 Webhook 地址（https://qyapi.weixin.qq.com/cgi-bin/webhook/send?key=…）',
  dingtalk: '自定义机器人的 Webhook 地址（https://oapi.dingtalk.com/robot/send?access_token=…）',
  feishu: '自定义机器人的 Webhook 地址（https://open.feishu.cn/open-apis/bot/v2/hook/…）',
  json: '接收方的地址；请求体为事件 JSON，带 X-Signature-256 签名',
};

interface FormValues {
  name: string;
  kind: WebhookKind;
  url: string;
  secret?: string;
  events: WebhookEventName[];
  enabled: boolean;
}

/** 通知 (super admins): group robots and signed JSON webhooks told of items waiting and rules firing. */
export default function NotificationsTab() {
  const [hooks, setHooks] = useState<Webhook[]>();
  const [editing, setEditing] = useState<Webhook | 'new' | null>(null);
  const [secret, setSecret] = useState<string | null>(null);
  const [log, setLog] = useState<Webhook | null>(null);
  const [busy, setBusy] = useState<string | null>(null);
  const [form] = Form.useForm<FormValues>();
  const kind = Form.useWatch('kind', form);

  const reload = useCallback(() => {
    listWebhooks().then(setHooks).catch(alreadyShown);
  }, []);
  useEffect(reload, [reload]);

  const open = (hook: Webhook | 'new') => {
    setEditing(hook);
    form.setFieldsValue(
      hook === 'new'
        ? { name: '', kind: 'wecom', url: '', secret: undefined, events: ['item.waiting'], enabled: true }
        : { name: hook.name, kind: hook.kind, url: hook.url, secret: undefined, events: hook.events, enabled: hook.enabled },
    );
  };

  const save = async () => {
    // A refused form shows why at its fields: nothing to send, and no rejection left unhandled.
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const secretGiven = values.secret?.trim() ? values.secret.trim() : undefined;
    try {
      if (editing === 'new') {
        const created = await createWebhook({
          ...values,
          secret: values.kind === 'dingtalk' || values.kind === 'feishu' ? secretGiven : undefined,
        });
        message.success('已新建通知');
        if (created.secret) setSecret(created.secret);
      } else if (editing) {
        await updateWebhook(editing._id, {
          name: values.name,
          // The list shows the address shortened: it is sent only when it was typed anew.
          ...(values.url !== editing.url && { url: values.url }),
          ...(secretGiven && { secret: secretGiven }),
          events: values.events,
          enabled: values.enabled,
        });
        message.success('已保存');
      }
      setEditing(null);
      reload();
    } catch {
      // Shown by the request layer; the dialog stays open.
    }
  };

  const remove = async (hook: Webhook) => {
    try {
      await deleteWebhook(hook._id);
      message.success('已删除');
      reload();
    } catch {
      // Shown by the request layer.
    }
  };

  const test = async (hook: Webhook) => {
    setBusy(hook._id);
    try {
      const delivery = await testWebhook(hook._id);
      if (delivery.state === 'delivered') message.success('测试通知已送达');
      else message.error(`测试通知发送失败：${delivery.lastError ?? '未知原因'}，稍后会自动重试`);
      reload();
    } catch {
      // Shown by the request layer.
    }
    setBusy(null);
  };

  const rotate = async (hook: Webhook) => {
    try {
      setSecret((await rotateWebhookSecret(hook._id)).secret);
    } catch {
      // Shown by the request layer.
    }
  };

  const columns: ColumnsType<Webhook> = [
    {
      title: '名称',
      dataIndex: 'name',
      render: (name: string, hook) => (
        <span style={{ wordBreak: 'break-all' }}>
          {name}
          <br />
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {hook.url}
          </Typography.Text>
        </span>
      ),
    },
    {
      title: '类型',
      dataIndex: 'kind',
      render: (value: WebhookKind) => <span style={{ whiteSpace: 'nowrap' }}>{WEBHOOK_KINDS[value]}</span>,
    },
    {
      title: '事件',
      dataIndex: 'events',
      render: (events: WebhookEventName[]) => events.map((e) => <Tag key={e}>{WEBHOOK_EVENT_NAMES[e]}</Tag>),
    },
    { title: '启用', dataIndex: 'enabled', width: 64, render: (enabled: boolean) => (enabled ? '是' : '否') },
    {
      title: '最近投递',
      dataIndex: 'lastDelivery',
      render: (last: Webhook['lastDelivery']) =>
        last ? (
          <span>
            <Tag color={STATE_COLORS[last.state]} style={{ color: STATE_TEXT[last.state] }}>
              {WEBHOOK_STATES[last.state]}
            </Tag>
            {formatDate(last.at)}
          </span>
        ) : (
          '-'
        ),
    },
    {
      title: '操作',
      key: 'actions',
      render: (_: unknown, hook) => (
        <Space wrap size={4}>
          <Button size="small" type="link" onClick={() => open(hook)} aria-label={`编辑 ${hook.name}`}>
            编辑
          </Button>
          <Button size="small" type="link" loading={busy === hook._id} onClick={() => test(hook)} aria-label={`发送测试 ${hook.name}`}>
            发送测试
          </Button>
          <Button size="small" type="link" onClick={() => setLog(hook)} aria-label={`投递记录 ${hook.name}`}>
            投递记录
          </Button>
          {hook.kind === 'json' && (
            <Popconfirm
              title="更换密钥？"
              description="旧密钥立即失效，接收方需要换成新密钥。"
              onConfirm={() => rotate(hook)}
              okText="更换"
              cancelText="取消"
            >
              <Button size="small" type="link" aria-label={`更换密钥 ${hook.name}`}>
                更换密钥
              </Button>
            </Popconfirm>
          )}
          <Popconfirm
            title="删除这个通知？"
            description="投递记录一并删除。"
            onConfirm={() => remove(hook)}
            okText="删除"
            okButtonProps={{ danger: true }}
            cancelText="取消"
          >
            <Button size="small" type="link" danger aria-label={`删除 ${hook.name}`}>
              删除
            </Button>
          </Popconfirm>
        </Space>
      ),
    },
  ];

  const signs = kind === 'dingtalk' || kind === 'feishu';
  return (
    <Space direction="vertical" style={{ width: '100%' }}>
      <Typography.Text type="secondary">
        有新内容待审或规则触发时，发送到企业微信、钉钉、飞书群机器人或通用 JSON 地址；失败会自动重试。
      </Typography.Text>
      <Button type="primary" onClick={() => open('new')}>
        新建通知
      </Button>
      <Table<Webhook>
        rowKey="_id"
        columns={columns}
        dataSource={hooks}
        loading={hooks === undefined}
        pagination={false}
        scroll={{ x: 'max-content' }}
      />

      <Modal
        open={editing !== null}
        title={editing === 'new' ? '新建通知' : '编辑通知'}
        onOk={save}
        onCancel={() => setEditing(null)}
        okText="保存"
        cancelText="取消"
        destroyOnHidden
        forceRender
      >
        <Form form={form} layout="vertical" preserve={false}>
          <Form.Item name="name" label="名称" rules={[{ required: true, whitespace: true, message: '请输入名称' }]}>
            <Input maxLength={WEBHOOK_NAME_MAX_LENGTH} />
          </Form.Item>
          <Form.Item name="kind" label="类型">
            <Select disabled={editing !== 'new'} options={Object.entries(WEBHOOK_KINDS).map(([value, label]) => ({ value, label }))} />
          </Form.Item>
          <Form.Item
            name="url"
            label="地址"
            extra={kind ? URL_HINTS[kind] : undefined}
            rules={[
              { required: true, message: '请输入地址' },
              { pattern: /^https?:\/\//, message: '地址应为 http:// 或 https:// 开头的网址' },
            ]}
          >
            <Input maxLength={WEBHOOK_URL_MAX_LENGTH} inputMode="url" />
          </Form.Item>
          {signs && (
            <Form.Item
              name="secret"
              label="加签密钥"
              extra={
                editing !== 'new' && editing?.hasSecret ? '已设置；留空则不修改' : '机器人安全设置中“加签”的密钥（SEC 开头）；不加签可留空'
              }
            >
              <Input.Password maxLength={WEBHOOK_SECRET_MAX_LENGTH} autoComplete="off" />
            </Form.Item>
          )}
          {kind === 'json' && editing === 'new' && (
            <Alert type="info" showIcon message="保存后系统生成签名密钥，只显示一次。" style={{ marginBottom: 16 }} />
          )}
          <Form.Item name="events" label="事件" rules={[{ required: true, message: '至少选择一个事件' }]}>
            <Checkbox.Group options={Object.entries(WEBHOOK_EVENT_NAMES).map(([value, label]) => ({ value, label }))} />
          </Form.Item>
          <Form.Item name="enabled" label="启用" valuePropName="checked">
            <Switch />
          </Form.Item>
        </Form>
      </Modal>

      <Modal
        open={secret !== null}
        title="签名密钥"
        onOk={() => setSecret(null)}
        onCancel={() => setSecret(null)}
        okText="我已保存"
        cancelButtonProps={{ style: { display: 'none' } }}
      >
        <Alert type="warning" showIcon message="密钥只显示这一次，关闭后无法再次查看。" style={{ marginBottom: 12 }} />
        <Typography.Paragraph
          code
          copyable={{ text: secret ?? '', tooltips: ['复制密钥', '已复制'] }}
          data-testid="webhook-secret"
          style={{ wordBreak: 'break-all' }}
        >
          {secret}
        </Typography.Paragraph>
      </Modal>

      <Drawer
        open={log !== null}
        title={`投递记录：${log?.name ?? ''}`}
        onClose={() => setLog(null)}
        width="min(880px, 100vw)"
        destroyOnHidden
      >
        {log && (
          <ProTable<WebhookDelivery>
            rowKey="_id"
            search={false}
            options={{ reload: true, density: false, setting: false }}
            request={(params) => listDeliveries(log._id, params)}
            pagination={{ defaultPageSize: 10, showSizeChanger: true }}
            scroll={{ x: 'max-content' }}
            columns={[
              { title: '时间', dataIndex: 'createdAt', render: (_, row) => formatDate(row.createdAt) },
              { title: '事件', dataIndex: 'event', render: (_, row) => WEBHOOK_DELIVERY_EVENTS[row.event] },
              {
                title: '状态',
                dataIndex: 'state',
                render: (_, row) => (
                  <Tag color={STATE_COLORS[row.state]} style={{ color: STATE_TEXT[row.state] }}>
                    {WEBHOOK_STATES[row.state]}
                  </Tag>
                ),
              },
              { title: '尝试次数', dataIndex: 'attempts' },
              { title: '状态码', dataIndex: 'lastStatus', render: (_, row) => row.lastStatus ?? '-' },
              {
                title: '错误',
                dataIndex: 'lastError',
                render: (_, row) => <span style={{ wordBreak: 'break-all' }}>{row.lastError ?? '-'}</span>,
              },
            ]}
          />
        )}
      </Drawer>
    </Space>
  );
}
