import type { ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import { actionsWidth, dateColumn, indexColumn, typeColumn, oneLine } from '@/components/listColumns';
import { useListExport } from '@/components/ExportButton';
import { useListTable } from '@/hooks/useListTable';
import { AddButton, DeleteAction } from '@/components/ListActions';
import { useTypeOptions } from '@/hooks/useTypeOptions';
import { listInterviews, removeInterview } from '@/services/interview';
import type { FilterKey } from '@/services/table';
import type { Interview, InterviewListQuery } from '#contract/interview';
import { cut } from '@/utils/format';
import { RowAction } from '@/components/RowAction';

interface ColumnContext {
  types: ReturnType<typeof useTypeOptions>;
  reload: () => unknown;
}

function interviewColumns(ctx: ColumnContext): ProColumns<Interview>[] {
  return [
    indexColumn(),
    {
      title: '题目名称',
      dataIndex: 'interviewTitle' satisfies FilterKey<InterviewListQuery>,
      ...oneLine<Interview>(),
      render: (_, interview) => <span title={interview.interviewTitle}>{cut(interview.interviewTitle, 22)}</span>,
    },
    typeColumn('题目分类', ctx.types),
    dateColumn('上架日期', 'onShelfDate'),
    {
      title: '操作',
      valueType: 'option',
      key: 'option',
      width: actionsWidth('详情', '编辑', '删除'),
      render: (_, interview) => [
        <RowAction key="detail" onClick={() => history.push(`/interview/interviewList/${interview._id}`)}>
          详情
        </RowAction>,
        <RowAction key="edit" onClick={() => history.push(`/interview/editInterview/${interview._id}`)}>
          编辑
        </RowAction>,
        <DeleteAction
          key="delete"
          title="是否要删除该面试题？"
          remove={() => removeInterview(interview._id)}
          done="删除题目成功"
          onDeleted={ctx.reload}
        />,
      ],
    },
  ];
}

export default function InterviewList() {
  const exporter = useListExport('interview');
  const list = useListTable<Interview>({
    request: exporter.track(listInterviews),
    batch: { resource: 'interview', actions: [{ action: 'delete', label: '删除', danger: true }] },
  });
  const types = useTypeOptions();

  return (
    // The table's header names the list; a page heading would say it a second time.
    <PageContainer title={false}>
      <ProTable<Interview>
        {...list.props(interviewColumns({ types, reload: list.reload }))}
        headerTitle="题目列表"
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
