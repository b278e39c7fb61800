/** Where a webhook sends: three group robots and a generic signed JSON receiver (通知). */
export const WEBHOOK_KINDS = {
  wecom: '企业微信',
  dingtalk: '钉钉',
  feishu: '飞书',
  json: '通用 JSON',
} as const;
export type WebhookKind = keyof typeof WEBHOOK_KINDS;

/** The kinds that sign with a secret: 钉钉 and 飞书 with the robot's 加签 secret (given), JSON with one the server makes. */
export const WEBHOOK_SIGNING_KINDS: readonly WebhookKind[] = ['dingtalk', 'feishu', 'json'];

/** What a webhook can be told, with the label the screens show. */
export const WEBHOOK_EVENT_NAMES = {
  'item.waiting': '新内容待审',
  'rule.fired': '规则触发',
} as const;
export type WebhookEventName = keyof typeof WEBHOOK_EVENT_NAMES;

/** A delivery's event also may be 发送测试's. */
export const WEBHOOK_TEST_EVENT = 'webhook.test';
export const WEBHOOK_DELIVERY_EVENTS = { ...WEBHOOK_EVENT_NAMES, [WEBHOOK_TEST_EVENT]: '测试' } as const;

export const WEBHOOK_STATES = {
  pending: '等待投递',
  delivered: '已投递',
  failed: '失败',
} as const;
export type WebhookState = keyof typeof WEBHOOK_STATES;

export const WEBHOOK_NAME_MAX_LENGTH = 64;
export const WEBHOOK_URL_MAX_LENGTH = 2048;
export const WEBHOOK_SECRET_MAX_LENGTH = 200;
/** At most this many webhooks: each event is one delivery per hook. */
export const WEBHOOKS_MAX = 50;

/**
 * Retries: attempt n (1-based) that fails waits BASE × 2^(n−1), at most CAP, before the next; after
 * the MAX-th the delivery is failed. 30 s, 1, 2, 4, 8, 16, 32 min: the last try about 63 min after the first.
 */
export const WEBHOOK_BACKOFF_BASE_MS = 30_000;
export const WEBHOOK_BACKOFF_CAP_MS = 60 * 60_000;
export const WEBHOOK_MAX_ATTEMPTS = 8;
/** One send waits at most this long for the receiver's answer. */
export const WEBHOOK_TIMEOUT_MS = 10_000;

export const WEBHOOK_MESSAGES = {
  notFound: '通知不存在',
  badUrl: '地址应为 http:// 或 https:// 开头的网址',
  privateUrl: '不能发送到本机或内网地址',
  noEvents: '至少选择一个事件',
  tooMany: `通知最多 ${WEBHOOKS_MAX} 个`,
  /** 企业微信's robot has no signing secret: its key is in the address. */
  noSecret: '企业微信机器人不使用密钥（密钥在地址的 key 参数中）',
} as const;
