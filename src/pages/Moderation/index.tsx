import { PageContainer } from '@ant-design/pro-components';
import { useAccess } from '@umijs/max';
import { useState } from 'react';
import AccountRules from './AccountRules';
import TestBox from './TestBox';
import WordList from './WordList';

type Tab = 'words' | 'account';

/**
 * 审核规则 (issue 25): the word list with its 测试 box, and for a super admin the account rules and
 * 重新检查. Every admin may read the list and test a text; the changes are a super admin's, each
 * behind a fresh proof (the request layer's 验证身份 on 403 REAUTH_REQUIRED).
 */
export default function ModerationRules() {
  const access = useAccess();
  const [tab, setTab] = useState<Tab>('words');
  const shown: Tab = access.canSuperAdmin ? tab : 'words';
  return (
    <PageContainer
      title="审核规则"
      tabList={
        access.canSuperAdmin
          ? [
              { key: 'words', tab: '敏感词' },
              { key: 'account', tab: '账号规则' },
            ]
          : undefined
      }
      tabActiveKey={shown}
      onTabChange={(key) => setTab(key as Tab)}
    >
      {shown === 'account' ? (
        <AccountRules />
      ) : (
        <>
          <WordList />
          <TestBox />
        </>
      )}
    </PageContainer>
  );
}
