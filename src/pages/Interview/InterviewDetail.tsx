import PagePlaceholder from '@/components/PagePlaceholder';

export default function InterviewDetail() {
  return <PagePlaceholder title="题目详情" />;
}
