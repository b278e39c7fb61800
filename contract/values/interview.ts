export const INTERVIEW_MESSAGES = {
  notFound: '面试题不存在',
} as const;
