import { Type, type Static } from '@sinclair/typebox';
import { Id } from './ids';
import { PageQuery, Paged } from './paging';
import {
  WEBHOOK_DELIVERY_EVENTS,
  WEBHOOK_EVENT_NAMES,
  WEBHOOK_KINDS,
  WEBHOOK_NAME_MAX_LENGTH,
  WEBHOOK_SECRET_MAX_LENGTH,
  WEBHOOK_STATES,
  WEBHOOK_URL_MAX_LENGTH,
  type WebhookEventName,
  type WebhookKind,
  type WebhookState,
} from './values/webhook';

export * from './values/webhook';

const literals = <K extends string>(keys: K[], description: string) =>
  Type.Union(
    keys.map((key) => Type.Literal(key)),
    { description },
  );

export const WebhookKindSchema = literals(
  Object.keys(WEBHOOK_KINDS) as WebhookKind[],
  'wecom 企业微信 | dingtalk 钉钉 | feishu 飞书 | json 通用 JSON',
);
export const WebhookEventSchema = literals(
  Object.keys(WEBHOOK_EVENT_NAMES) as WebhookEventName[],
  'item.waiting 新内容待审 | rule.fired 规则触发',
);
export const WebhookStateSchema = literals(
  Object.keys(WEBHOOK_STATES) as WebhookState[],
  'pending 等待投递 | delivered 已投递 | failed 失败',
);

const Events = Type.Array(WebhookEventSchema, { minItems: 1, maxItems: 2, uniqueItems: true, description: '接收的事件' });
const Name = Type.String({ minLength: 1, maxLength: WEBHOOK_NAME_MAX_LENGTH, description: '名称' });
const Url = Type.String({ minLength: 1, maxLength: WEBHOOK_URL_MAX_LENGTH, description: 'http(s) 地址' });
const Secret = Type.String({ minLength: 1, maxLength: WEBHOOK_SECRET_MAX_LENGTH, description: '钉钉、飞书机器人的加签密钥' });

export const WebhookLastDelivery = Type.Object({
  state: WebhookStateSchema,
  at: Type.Integer({ description: '最近一次尝试或创建的时间，epoch 毫秒' }),
  status: Type.Union([Type.Integer(), Type.Null()], { description: '接收方的 HTTP 状态码' }),
});

export const Webhook = Type.Object(
  {
    _id: Id,
    name: Type.String(),
    kind: WebhookKindSchema,
    /** The address with its tokens shortened (a robot's key is its credential). */
    url: Type.String({ description: '地址（其中的 key、token 等只显示开头）' }),
    hasSecret: Type.Boolean({ description: '是否设置了签名密钥（密钥本身不再返回）' }),
    events: Type.Array(WebhookEventSchema),
    enabled: Type.Boolean(),
    createdAt: Type.Integer({ description: 'epoch 毫秒' }),
    lastDelivery: Type.Union([WebhookLastDelivery, Type.Null()]),
  },
  { title: 'Webhook' },
);
export type Webhook = Static<typeof Webhook>;

/** The create's answer: the one time the generated secret (通用 JSON) is shown. */
export const WebhookCreated = Type.Object(
  {
    webhook: Webhook,
    secret: Type.Union([Type.String(), Type.Null()], { description: '通用 JSON 的签名密钥，只在此时返回一次' }),
  },
  { title: 'WebhookCreated' },
);
export type WebhookCreated = Static<typeof WebhookCreated>;

export const WebhookList = Type.Array(Webhook);

export const CreateWebhookBody = Type.Object(
  {
    name: Name,
    kind: WebhookKindSchema,
    url: Url,
    secret: Type.Optional(Secret),
    events: Events,
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
export type CreateWebhookBody = Static<typeof CreateWebhookBody>;

/** The kind is fixed once made; a secret given replaces the old one (钉钉、飞书); null removes it. */
export const WebhookPatch = Type.Object(
  {
    name: Type.Optional(Name),
    url: Type.Optional(Url),
    secret: Type.Optional(Type.Union([Secret, Type.Null()])),
    events: Type.Optional(Events),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false, minProperties: 1 },
);
export type WebhookPatch = Static<typeof WebhookPatch>;

export const WebhookSecret = Type.Object(
  { secret: Type.String({ description: '新的签名密钥，只在此时返回一次' }) },
  { title: 'WebhookSecret' },
);

export const WebhookDelivery = Type.Object(
  {
    _id: Type.Integer(),
    event: literals(Object.keys(WEBHOOK_DELIVERY_EVENTS) as Array<keyof typeof WEBHOOK_DELIVERY_EVENTS>, '事件'),
    state: WebhookStateSchema,
    attempts: Type.Integer({ description: '已尝试次数' }),
    nextAttemptAt: Type.Integer({ description: '下一次尝试的时间（pending 时），epoch 毫秒' }),
    lastStatus: Type.Union([Type.Integer(), Type.Null()], { description: '最近一次的 HTTP 状态码' }),
    lastError: Type.Union([Type.String(), Type.Null()], { description: '最近一次失败的原因' }),
    lastDurationMs: Type.Union([Type.Integer(), Type.Null()], { description: '最近一次发送用时，毫秒' }),
    createdAt: Type.Integer(),
    deliveredAt: Type.Union([Type.Integer(), Type.Null()]),
  },
  { title: 'WebhookDelivery' },
);
export type WebhookDelivery = Static<typeof WebhookDelivery>;
export const WebhookDeliveryQuery = Type.Object(
  { ...PageQuery, state: Type.Optional(Type.Union([WebhookStateSchema, Type.Literal('')])) },
  { additionalProperties: false },
);
export type WebhookDeliveryQuery = Static<typeof WebhookDeliveryQuery>;
export const WebhookDeliveryPage = Paged(WebhookDelivery);
