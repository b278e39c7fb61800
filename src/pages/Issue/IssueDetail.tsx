import PagePlaceholder from '@/components/PagePlaceholder';

export default function IssueDetail() {
  return <PagePlaceholder title="问答详情" />;
}
