import { PageContainer, ProForm, type ProFormProps } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import { Card, Skeleton, Space } from 'antd';
import { type ReactNode, useState } from 'react';
import ConflictDialog from '@/components/ConflictDialog';
import { conflictOf } from '@/requestErrorConfig';
import type { VersionConflict } from '#contract/version';
import HistoryButton from '@/components/HistoryDrawer';
import InitialPasswordModal from '@/components/InitialPasswordModal';
import LoadFailed from '@/components/LoadFailed';
import type { Loaded } from '@/hooks/useLoaded';
import { message } from '@/utils/feedback';
import type { AuditEntity } from '#contract/audit';

/** An account the server has just made a password for: shown once, never again. */
interface GeneratedPassword {
  account: string;
  password: string;
}

function generatedPasswordOf(saved: unknown): GeneratedPassword | undefined {
  if (typeof saved !== 'object' || saved === null) return undefined;
  const { loginId, initialPassword } = saved as { loginId?: unknown; initialPassword?: unknown };
  if (typeof loginId !== 'string' || typeof initialPassword !== 'string' || !initialPassword) {
    return undefined;
  }
  return { account: loginId, password: initialPassword };
}

interface FormPageProps<Values, Item> {
  title: string;
  /** Where the page goes once saved. */
  listPath: string;
  /** An edit page's record and the way back when it cannot be loaded; the form waits for it. */
  record?: { loaded: Loaded<Item>; backText: string; reload?: () => void };
  /**
   * An edit page's 历史 button: the record's history, from which a change can be put back. It stays
   * while the record loads again after a revert, so its drawer stays open.
   */
  historyOf?: { entity: AuditEntity; id: string };
  /**
   * Sends the form. A refusal rejects, once the request layer has shown it (services/api.ts): the
   * page then stays with what was typed. An answer carrying `initialPassword` (an account whose
   * password the server generated) is shown once in a modal before going back to the list.
   */
  save: (values: Values, record: Item) => Promise<unknown>;
  /** The success message, e.g. 「添加用户成功」. */
  saved: string;
  /** An edit page's check that nothing differs from the record: nothing is sent then. */
  unchanged?: (values: Values, record: Item) => boolean;
  /** The form, given what its `onFinish` must be. */
  children: (onFinish: (values: Values) => Promise<void>, record: Item) => ReactNode;
}

/**
 * The shell of every add and edit page: the page container, the loading record of an edit page,
 * the save (success message, generated password, back to the list). The page keeps its fields
 * and how they become a request.
 */
export default function FormPage<Values, Item = undefined>({
  title,
  listPath,
  record,
  save,
  saved,
  unchanged,
  historyOf,
  children,
}: FormPageProps<Values, Item>) {
  const [generated, setGenerated] = useState<GeneratedPassword>();
  // A save refused with 409 VERSION_CONFLICT: what changed, and the save to send again on purpose.
  const [clash, setClash] = useState<{ conflict: VersionConflict; mine: Record<string, unknown>; overwrite: () => void }>();
  const backToList = () => history.push(listPath);

  const form = (current: Item) => {
    const onFinish = async (values: Values) => {
      if (unchanged?.(values, current)) {
        message.info('没有需要保存的修改');
        return;
      }
      await send(values, current);
    };
    // Saved against `base`: the loaded record, or the same with the version a conflict reported.
    const send = async (values: Values, base: Item) => {
      let answer: unknown;
      try {
        answer = await save(values, base);
      } catch (error) {
        const conflict = conflictOf(error);
        if (conflict) {
          setClash({
            conflict,
            mine: values as Record<string, unknown>,
            overwrite: () => send(values, { ...(base as object), version: conflict.currentVersion } as Item),
          });
        }
        // Otherwise shown by the request layer; the form keeps what was typed.
        return;
      }
      message.success(saved);
      const password = generatedPasswordOf(answer);
      if (password) setGenerated(password);
      else backToList();
    };
    return children(onFinish, current);
  };

  let body: ReactNode;
  if (!record) body = <Card>{form(undefined as Item)}</Card>;
  else if (record.loaded.status === 'failed') {
    body = <LoadFailed error={record.loaded.error} backTo={listPath} backText={record.backText} />;
  } else if (record.loaded.status === 'loading') {
    body = (
      <Card>
        <Skeleton active />
      </Card>
    );
  } else body = <Card>{form(record.loaded.value)}</Card>;

  return (
    <PageContainer
      title={title}
      extra={historyOf && <HistoryButton entity={historyOf.entity} id={historyOf.id} onReverted={record?.reload} />}
    >
      {body}
      <InitialPasswordModal account={generated?.account} password={generated?.password} onClose={backToList} />
      <ConflictDialog
        conflict={clash?.conflict}
        mine={clash?.mine ?? {}}
        onCancel={() => setClash(undefined)}
        onReload={() => {
          setClash(undefined);
          record?.reload?.();
        }}
        onOverwrite={() => {
          const overwrite = clash?.overwrite;
          setClash(undefined);
          overwrite?.();
        }}
      />
    </PageContainer>
  );
}

interface PageFormProps<Values> extends Pick<ProFormProps<Values>, 'initialValues' | 'onFinish'> {
  /** 确认新增 or 确认修改; the other button is always 重置. */
  submitText: string;
  /** Grid columns of the labels and of the fields. */
  labelSpan?: number;
  fieldSpan?: number;
  children: ReactNode;
}

/** The form of a form page: labels beside the fields, the submit button then 重置 under them. */
export function PageForm<Values>({ initialValues, onFinish, submitText, labelSpan = 4, fieldSpan = 12, children }: PageFormProps<Values>) {
  return (
    <ProForm<Values>
      layout="horizontal"
      labelCol={{ span: labelSpan }}
      wrapperCol={{ span: fieldSpan }}
      initialValues={initialValues}
      onFinish={onFinish}
      submitter={{
        searchConfig: { submitText, resetText: '重置' },
        render: (_, [reset, submit]) => (
          <ProForm.Item wrapperCol={{ offset: labelSpan, span: fieldSpan }}>
            <Space>
              {submit}
              {reset}
            </Space>
          </ProForm.Item>
        ),
      }}
    >
      {children}
    </ProForm>
  );
}
