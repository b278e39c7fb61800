import type { Rule } from 'antd/es/form';

// What the server refuses in an account name (contract/fields.ts LoginId): white space, and
// invisible characters that make a name look like another. The ends are trimmed before sending.
const NOT_ALLOWED = /[\s\p{Default_Ignorable_Code_Point}]/u;

/** Whether an account name, trimmed, is one the server takes (its uniqueness aside). */
export function loginIdShapeOk(value: string | undefined): boolean {
  return !NOT_ALLOWED.test(value?.trim() ?? '');
}

/** The form rule for that, naming the field as its form does (登录账号, 管理员账号). */
export function loginIdShape(label: string): Rule {
  return {
    async validator(_, value: string | undefined) {
      if (!loginIdShapeOk(value)) throw new Error(`${label}不能包含空格或不可见字符`);
    },
  };
}
