import { PlusOutlined } from '@ant-design/icons';
import type { ActionType, ProColumns } from '@ant-design/pro-components';
import { PageContainer, ProTable } from '@ant-design/pro-components';
import { history } from '@umijs/max';
import { Button, Popconfirm, Tag } from 'antd';
import { useRef, useState } from 'react';
import { useTypeOptions } from '@/hooks/useTypeOptions';
import { listInterviews, removeInterview } from '@/services/interview';
import type { Interview } from '@/types/api';
import { message } from '@/utils/feedback';
import { cut, formatDate } from '@/utils/format';

export default function InterviewList() {
  const actionRef = useRef<ActionType>();
  const { valueEnum, nameOf } = useTypeOptions();
  const [paging, setPaging] = useState({ current: 1, pageSize: 10 });

  const onDelete = async (interview: Interview) => {
    try {
      await removeInterview(interview._id);
      message.success('删除题目成功');
      await actionRef.current?.reload();
    } catch {
      // The global error handler has shown the server's message.
    }
  };

  const columns: ProColumns<Interview>[] = [
    {
      title: '序号',
      key: 'serial',
      width: 72,
      align: 'center',
      search: false,
      render: (_, __, index) => (paging.current - 1) * paging.pageSize + index + 1,
    },
    {
      title: '题目名称',
      dataIndex: 'interviewTitle',
      render: (_, interview) => (
        <span title={interview.interviewTitle}>{cut(interview.interviewTitle, 22)}</span>
      ),
    },
    {
      title: '题目分类',
      dataIndex: 'typeId',
      valueType: 'select',
      valueEnum,
      render: (_, interview) => <Tag color="purple">{nameOf(interview.typeId)}</Tag>,
    },
    {
      title: '上架日期',
      dataIndex: 'onShelfDate',
      search: false,
      render: (_, interview) => formatDate(interview.onShelfDate),
    },
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
        <Popconfirm
          key="delete"
          title="是否要删除该面试题？"
          okText="删除"
          cancelText="取消"
          onConfirm={() => onDelete(interview)}
        >
          <a>删除</a>
        </Popconfirm>,
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
        request={(params) => {
          setPaging({ current: params.current ?? 1, pageSize: params.pageSize ?? 10 });
          return listInterviews(params);
        }}
        pagination={{
          defaultPageSize: 10,
          pageSizeOptions: [10, 20, 50, 100],
          showSizeChanger: true,
          showQuickJumper: true,
        }}
        options={{ density: false, setting: false }}
        toolBarRender={() => [
          <Button
            key="add"
            type="primary"
            icon={<PlusOutlined />}
            onClick={() => history.push('/interview/addInterview')}
          >
            添加题目
          </Button>,
        ]}
      />
    </PageContainer>
  );
}
