import PagePlaceholder from '@/components/PagePlaceholder';

export default function InterviewList() {
  return <PagePlaceholder title="题目列表" />;
}
