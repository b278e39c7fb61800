import type { ActionType, ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import { useRef } from 'react';
import { useListExport } from '@/components/ExportButton';
import { dateColumn, indexColumn, serverPagination, tableOptions, typeColumn } from '@/components/listColumns';
import { AddButton, DeleteAction } from '@/components/ListActions';
import { useTypeOptions } from '@/hooks/useTypeOptions';
import { listInterviews, removeInterview } from '@/services/interview';
import type { FilterKey } from '@/services/table';
import type { Interview, InterviewListQuery } from '../../../contract/interview';
import { cut } from '@/utils/format';

export default function InterviewList() {
  const actionRef = useRef<ActionType>();
  const exporter = useListExport('interview');
  const types = useTypeOptions();

  const columns: ProColumns<Interview>[] = [
    indexColumn(),
    {
      title: '题目名称',
      dataIndex: 'interviewTitle' satisfies FilterKey<InterviewListQuery>,
      render: (_, interview) => (
        <span title={interview.interviewTitle}>{cut(interview.interviewTitle, 22)}</span>
      ),
    },
    typeColumn('题目分类', types),
    dateColumn('上架日期', 'onShelfDate'),
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      render: (_, interview) => [
        <a key="detail" onClick={() => history.push(`/interview/interviewList/${interview._id}`)}>
          详情
        </a>,
        <a key="edit" onClick={() => history.push(`/interview/editInterview/${interview._id}`)}>
          编辑
        </a>,
        <DeleteAction
          key="delete"
          title="是否要删除该面试题？"
          remove={() => removeInterview(interview._id)}
          done="删除题目成功"
          onDeleted={() => actionRef.current?.reload()}
        />,
      ],
    },
  ];

  return (
    <PageContainer>
      <ProTable<Interview>
        headerTitle="题目列表"
        rowKey="_id"
        actionRef={actionRef}
        columns={columns}
        request={exporter.track(listInterviews)}
        pagination={serverPagination}
        options={tableOptions}
        toolBarRender={() => [
          exporter.button,
          <AddButton key="add" to="/interview/addInterview">
            添加题目
          </AddButton>,
        ]}
      />
    </PageContainer>
  );
}
