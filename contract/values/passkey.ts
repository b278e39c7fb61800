/** What the passkey calls answer in words (个人设置 → 通行密钥, 使用通行密钥登录). */
export const PASSKEY_MESSAGES = {
  notFound: '该通行密钥不存在',
  /** The challenge was used, ran out or was never made: the browser asks again. */
  challengeExpired: '通行密钥验证已过期，请重试',
  /** The same for an unknown credential and a bad signature. */
  rejected: '通行密钥验证失败',
  duplicate: '该通行密钥已经添加过',
  /** No WEBAUTHN_RP_ID is configured and the page is not served from localhost. */
  notConfigured: '服务器没有配置通行密钥（WEBAUTHN_RP_ID、WEBAUTHN_ORIGIN）',
  tooMany: '通行密钥最多添加 20 个',
} as const;

/** How many passkeys one admin may keep. */
export const PASSKEY_MAX_PER_ADMIN = 20;

/** A passkey's name: 1 to 32 characters. */
export const PASSKEY_NAME_MAX = 32;
